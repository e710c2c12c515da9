/**
 * blade-system reads the shell needs: the screen documents the caller may open, and `locale/extra`, the strings extra document folders (SCHEMA_DIRS) bring. Menus (routes, buttons,
 * top-menu) live in modules/menu, dictionaries (dictionary, batch) in modules/dict.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser, type ServerModule } from '../../context.js';
import { notFound, ok } from '../../lib/http.js';
import type { ScreenDocument } from '../../../shared/document.js';

async function visibleScreens(app: FastifyInstance, req: FastifyRequest) {
  const user = requireUser(req);
  const codes = await app.ctx.permissions.codes(user.roleIds);
  return app.ctx.docs.all.filter((d) => mayLoad(d, codes));
}

/** A screen's document is served to holders of its menu code, or of any code it is granted by (grantedBy). */
function mayLoad(doc: ScreenDocument, codes: Set<string>): boolean {
  return (doc.grantedBy ?? [doc.resource.permissionPrefix]).some((c) => codes.has(c));
}

const systemModule: ServerModule = {
  name: 'system',
  async plugin(app) {
    // Strings that extra document folders bring (SCHEMA_DIRS <dir>/locales/<lang>.json), for the web app to add
    // to its bundled texts: { zh: {...}, en: {...} }, empty objects without extra folders.
    app.get('/api/blade-system/locale/extra', async (req) => {
      requireUser(req);
      return ok({ zh: app.ctx.i18n.extraTexts('zh'), en: app.ctx.i18n.extraTexts('en') });
    });

    // Documents of records whose menu code is granted, and layout documents (master-detail, page) whose
    // `permission` is granted.
    app.get('/api/blade-system/screen/list', async (req) => {
      const docs = await visibleScreens(app, req);
      const codes = await app.ctx.permissions.codes(requireUser(req).roleIds);
      const layouts = app.ctx.docs.layouts.filter((l) => codes.has(l.permission));
      return ok([...docs, ...layouts].map((d) => ({ id: d.id, route: d.route, title: d.title })));
    });
    app.get('/api/blade-system/screen/detail', async (req) => {
      const id = String(((req.query ?? {}) as Record<string, unknown>).id ?? '');
      const codes = await app.ctx.permissions.codes(requireUser(req).roleIds);
      const layouts = app.ctx.docs.layouts.filter((l) => codes.has(l.permission));
      const layout = layouts.find((l) => l.id === id);
      if (layout) return ok(layout);
      const visible = app.ctx.docs.all.filter((d) => mayLoad(d, codes));
      // Also a screen that a granted `show` action of a visible screen draws its records with (e.g. the order
      // columns of a settlement's details), or the master/detail of a granted master-detail layout: the
      // document only, its own endpoints keep their permissions.
      const drawnBy =
        visible.some((v) => (v.list.actions ?? []).some((a) => a.show?.screen === id && codes.has(a.permission))) ||
        layouts.some((l) => l.view.type === 'master-detail' && (l.view.master === id || l.view.detail === id));
      const doc = visible.find((d) => d.id === id) ?? (drawnBy ? app.ctx.docs.get(id) : undefined);
      if (!doc) throw notFound('error.notFound');
      return ok(doc);
    });
  },
};

export default systemModule;
