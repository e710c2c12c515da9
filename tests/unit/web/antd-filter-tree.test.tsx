// @vitest-environment happy-dom
/**
 * The Tree the build gives antd's table filter menu (src/web/lib/antdTableFilterTree.tsx, vite.config.ts
 * NARROW_IMPORTS): it loads antd's Tree on first use and then draws it with the props the menu passes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import TableFilterTree from '../../../src/web/lib/antdTableFilterTree.js';

afterEach(cleanup);

describe('antd table filter tree', () => {
  it('draws antd Tree with the given nodes once loaded', async () => {
    render(<TableFilterTree checkable defaultExpandAll treeData={[{ key: 'a', title: '食堂', children: [{ key: 'b', title: '一楼' }] }]} />);
    expect(await screen.findByText('一楼', {}, { timeout: 15_000 })).toBeTruthy();
    expect(document.querySelector('.ant-tree-checkbox')).not.toBeNull();
  });
});
