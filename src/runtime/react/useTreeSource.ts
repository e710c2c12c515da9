/**
 * The nodes of a tree source (`ui:options.tree`, `list.aside.tree`): a screen's `{api}/tree` (its document fetched
 * for the api) or an endpoint, with fixed params and params from form fields, the reply's `pick` property when
 * named; as antd tree options. Shared by the treeSelect widget and the tree beside a list.
 */
import { useMemo } from 'react';
import useSWR from 'swr';
import type { ScreenDocument, TreeSource } from '../../shared/document.js';
import { treeOptions, treeRequest, type TreeNode, type TreeOption } from '../model/index.js';
import type { RequestFn } from './context.js';
import { SCREEN_DETAIL_URL } from './screenUrls.js';

export function useTreeSource(
  request: RequestFn,
  source: TreeSource | undefined,
  form: Record<string, unknown> = {},
  opts: { leafOnly?: boolean } = {},
): { options: TreeOption[]; loading: boolean } {
  const { data: target } = useSWR(source?.screen ? ['runtime:screen', source.screen] : null, ([, id]: [string, string]) =>
    request<ScreenDocument>('GET', SCREEN_DETAIL_URL, { params: { id } }),
  );
  const req = treeRequest(source, form, target?.resource?.api);
  const { data, error } = useSWR(req ? ['runtime:tree', req.url, JSON.stringify(req.params)] : null, () => request<unknown>('GET', req!.url, { params: req!.params }));
  const nodes = source?.pick && data && typeof data === 'object' ? (data as Record<string, unknown>)[source.pick] : data;
  const options = useMemo(() => treeOptions(Array.isArray(nodes) ? (nodes as TreeNode[]) : [], { leafOnly: !!opts.leafOnly }), [nodes, opts.leafOnly]);
  return { options, loading: !data && !error };
}
