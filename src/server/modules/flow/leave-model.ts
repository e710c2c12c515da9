/** The shipped leave model (BPMN 2.0 with its diagram), as the designer saves it. See leave.ts for the route it takes. */
export const LEAVE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:flowable="http://flowable.org/bpmn"
  id="LeaveDefinitions" targetNamespace="http://canteen-admin/flow">
  <bpmn:process id="Leave" name="请假流程" isExecutable="true">
    <bpmn:startEvent id="start" name="申请" />
    <bpmn:userTask id="approve" name="审批" flowable:candidateUsers="\${taskUser}" flowable:formKey="leave-handle" />
    <bpmn:boundaryEvent id="escalate" name="超时" attachedToRef="approve">
      <bpmn:timerEventDefinition><bpmn:timeDuration xsi:type="bpmn:tFormalExpression">\${escalateAfter}</bpmn:timeDuration></bpmn:timerEventDefinition>
    </bpmn:boundaryEvent>
    <bpmn:userTask id="escalated" name="超时审批" flowable:candidateGroups="administrator" flowable:formKey="leave-handle" />
    <bpmn:exclusiveGateway id="decided" name="审批结果" default="toApproved" />
    <bpmn:userTask id="bossApprove" name="总经理审批" flowable:candidateGroups="administrator" flowable:formKey="leave-handle" />
    <bpmn:exclusiveGateway id="bossDecided" name="总经理意见" default="bossToApproved" />
    <bpmn:userTask id="adjust" name="调整申请" flowable:assignee="\${applyUser}" flowable:formKey="leave-adjust" />
    <bpmn:exclusiveGateway id="resubmit" name="重新提交?" default="toCancelled" />
    <bpmn:endEvent id="approved" name="已批准" />
    <bpmn:endEvent id="cancelled" name="已撤销" />
    <bpmn:sequenceFlow id="toApprove" sourceRef="start" targetRef="approve" />
    <bpmn:sequenceFlow id="toDecided" sourceRef="approve" targetRef="decided" />
    <bpmn:sequenceFlow id="toEscalated" sourceRef="escalate" targetRef="escalated" />
    <bpmn:sequenceFlow id="escalatedToDecided" sourceRef="escalated" targetRef="decided" />
    <bpmn:sequenceFlow id="toAdjust" name="驳回" sourceRef="decided" targetRef="adjust">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${!pass}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="toBoss" name="超过 3 天" sourceRef="decided" targetRef="bossApprove">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${pass &amp;&amp; days &gt; 3}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="toApproved" name="同意" sourceRef="decided" targetRef="approved" />
    <bpmn:sequenceFlow id="toBossDecided" sourceRef="bossApprove" targetRef="bossDecided" />
    <bpmn:sequenceFlow id="bossToAdjust" name="驳回" sourceRef="bossDecided" targetRef="adjust">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${!pass}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="bossToApproved" name="同意" sourceRef="bossDecided" targetRef="approved" />
    <bpmn:sequenceFlow id="toResubmit" sourceRef="adjust" targetRef="resubmit" />
    <bpmn:sequenceFlow id="toApproveAgain" name="重新提交" sourceRef="resubmit" targetRef="approve">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${pass}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="toCancelled" name="撤销" sourceRef="resubmit" targetRef="cancelled" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="LeaveDiagram">
    <bpmndi:BPMNPlane id="LeavePlane" bpmnElement="Leave">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="102" y="200" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="approve_di" bpmnElement="approve"><dc:Bounds x="200" y="178" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="escalate_di" bpmnElement="escalate"><dc:Bounds x="262" y="240" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="escalated_di" bpmnElement="escalated"><dc:Bounds x="230" y="340" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="decided_di" bpmnElement="decided" isMarkerVisible="true"><dc:Bounds x="370" y="193" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="bossApprove_di" bpmnElement="bossApprove"><dc:Bounds x="480" y="178" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="bossDecided_di" bpmnElement="bossDecided" isMarkerVisible="true"><dc:Bounds x="650" y="193" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="approved_di" bpmnElement="approved"><dc:Bounds x="782" y="200" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="adjust_di" bpmnElement="adjust"><dc:Bounds x="345" y="30" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="resubmit_di" bpmnElement="resubmit" isMarkerVisible="true"><dc:Bounds x="520" y="45" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="cancelled_di" bpmnElement="cancelled"><dc:Bounds x="652" y="52" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="toApprove_di" bpmnElement="toApprove"><di:waypoint x="138" y="218" /><di:waypoint x="200" y="218" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toDecided_di" bpmnElement="toDecided"><di:waypoint x="300" y="218" /><di:waypoint x="370" y="218" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toEscalated_di" bpmnElement="toEscalated"><di:waypoint x="280" y="276" /><di:waypoint x="280" y="340" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="escalatedToDecided_di" bpmnElement="escalatedToDecided"><di:waypoint x="330" y="380" /><di:waypoint x="395" y="380" /><di:waypoint x="395" y="243" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toAdjust_di" bpmnElement="toAdjust"><di:waypoint x="395" y="193" /><di:waypoint x="395" y="110" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toBoss_di" bpmnElement="toBoss"><di:waypoint x="420" y="218" /><di:waypoint x="480" y="218" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toApproved_di" bpmnElement="toApproved"><di:waypoint x="395" y="243" /><di:waypoint x="395" y="300" /><di:waypoint x="800" y="300" /><di:waypoint x="800" y="236" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toBossDecided_di" bpmnElement="toBossDecided"><di:waypoint x="580" y="218" /><di:waypoint x="650" y="218" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="bossToAdjust_di" bpmnElement="bossToAdjust"><di:waypoint x="675" y="193" /><di:waypoint x="675" y="140" /><di:waypoint x="420" y="140" /><di:waypoint x="420" y="110" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="bossToApproved_di" bpmnElement="bossToApproved"><di:waypoint x="700" y="218" /><di:waypoint x="782" y="218" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toResubmit_di" bpmnElement="toResubmit"><di:waypoint x="445" y="70" /><di:waypoint x="520" y="70" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toApproveAgain_di" bpmnElement="toApproveAgain"><di:waypoint x="545" y="45" /><di:waypoint x="545" y="10" /><di:waypoint x="250" y="10" /><di:waypoint x="250" y="178" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toCancelled_di" bpmnElement="toCancelled"><di:waypoint x="570" y="70" /><di:waypoint x="652" y="70" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;
