/**
 * The built-in views of the view registry: `list` (in the screen page's chunk, the common case), `tree` and
 * `master-detail` and `flowForm` (their own chunks), `page` (a page registered by name with `registerPage`); the
 * `flowDiagram` action dialog.
 */
import { lazy } from 'react';
import { Result } from './LazyResult.js';
import type { ScreenDocument } from '../../shared/document.js';
import { useRuntime } from './context.js';
import { ListScreen } from './ListScreen.js';
import { pageFor, registerAction, registerActionDialog, registerView, type ViewProps } from './registry.js';
import { addChildInitial } from '../model/index.js';

const AsideListView = lazy(() => import('./views/AsideListView.js'));
registerView('list', ({ doc }: ViewProps) => ((doc as ScreenDocument).list?.aside ? <AsideListView doc={doc} /> : <ListScreen doc={doc as ScreenDocument} />));
registerView('tree', lazy(() => import('./views/TreeView.js')));
registerView('master-detail', lazy(() => import('./views/MasterDetailView.js')));
registerView('flowForm', lazy(() => import('./views/FlowFormView.js')));
// a work list's 流程图: bpmn-js loads with the dialog, only when one is opened
registerActionDialog('flowDiagram', lazy(() => import('./bpmn/FlowDiagramAction.js')));
registerView('page', function PageView({ doc }: ViewProps) {
  const { t } = useRuntime();
  const name = doc.view?.type === 'page' ? doc.view.page : '';
  const Page = pageFor(name);
  if (!Page) return <Result status="warning" data-testid="page-missing" title={t('runtime.page.missing', { name })} />;
  return <Page doc={doc} />;
});

// Tree documents: a row button that opens the add dialog with the row as the new record's parent.
registerAction('addChild', {
  label: 'runtime.action.addChild',
  position: 'row',
  applies: (doc) => doc.view?.type === 'tree' && doc.view.addChild !== false && !!doc.resource?.tree,
  run: ({ doc, openAdd }, row) => row && openAdd(addChildInitial(doc, row)),
});
