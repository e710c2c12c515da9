// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import merchantJson from '../../../schemas/business/merchant.json';
import deploymentJson from '../../../schemas/flow/deployment.json';
import { uploadRefusal } from '../../../src/runtime/react/widgets.js';

// The merchant document's own upload options: contract PDF ≤ 10 MB, logo png/jpeg ≤ 1024 KB.
const contract = merchantJson.uiSchema.contractUrl['ui:options'];
const logo = merchantJson.uiSchema.logoUrl['ui:options'];
// 部署管理's BPMN file: by extension (browsers give .bpmn no type, .xml text/xml or application/xml)
const bpmn = deploymentJson.list.actions[0].form.uiSchema.file['ui:options'];

describe('upload pre-check from the document (before anything is sent)', () => {
  it('refuses a wrong type, by MIME or by extension when the browser gives none', () => {
    expect(uploadRefusal({ type: 'image/png', name: 'a.png', size: 10 }, contract)).toBe('common.upload.type');
    expect(uploadRefusal({ type: '', name: 'scan.exe', size: 10 }, logo)).toBe('common.upload.type');
    expect(uploadRefusal({ type: '', name: 'contract.PDF', size: 10 }, contract)).toBeNull();
  });

  it('takes an accepted extension whatever type the browser names', () => {
    expect(uploadRefusal({ type: '', name: 'leave.bpmn', size: 10 }, bpmn)).toBeNull();
    expect(uploadRefusal({ type: 'text/xml', name: 'Leave.BPMN20.XML', size: 10 }, bpmn)).toBeNull();
    expect(uploadRefusal({ type: 'text/plain', name: 'leave.txt', size: 10 }, bpmn)).toBe('common.upload.type');
    expect(uploadRefusal({ type: '', name: 'bpmn', size: 10 }, bpmn)).toBe('common.upload.type');
  });

  it('refuses a file over the limit and takes one exactly at it', () => {
    expect(uploadRefusal({ type: 'image/jpeg', name: 'l.jpg', size: 1048576 }, logo)).toBeNull();
    expect(uploadRefusal({ type: 'image/jpeg', name: 'l.jpg', size: 1048577 }, logo)).toBe('common.upload.size');
    expect(uploadRefusal({ type: 'application/pdf', name: 'c.pdf', size: 10 * 1024 * 1024 + 1 }, contract)).toBe('common.upload.size');
  });
});
