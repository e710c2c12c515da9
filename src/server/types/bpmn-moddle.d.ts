/** bpmn-moddle ships no types here: the part the workflow module uses. */
declare module 'bpmn-moddle' {
  export default class BpmnModdle {
    constructor(packages?: Record<string, unknown>);
    fromXML(xml: string, typeName?: string): Promise<{ rootElement: unknown; warnings?: Array<{ message?: string }> }>;
  }
}
