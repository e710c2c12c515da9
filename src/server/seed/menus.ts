/**
 * The menu tree as the database stores it (blade_menu rows), expanded from schemas/data/menus.json (the file
 * an analyst edits; format: schemas/meta/menus.schema.json). `code` is the permission code; category 1 =
 * menu, 2 = button; action 0 none, 1 toolbar, 2 row, 3 both. Pure: seed/data.ts reads and validates the
 * file, the server inserts missing codes at every start (seed/index.ts syncMenus), the lint checks
 * permission codes against the same expansion. Codes are never renamed (a renamed code is a new entry).
 */
export interface SeedMenu {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  /** Icon (antd icon name). */
  source: string;
  sort: number;
  category: 1 | 2;
  action: 0 | 1 | 2 | 3;
  isOpen: 1 | 2;
  alias: string;
  children: SeedMenu[];
  /** Where the entry is written in the data file (JSON pointer), for messages. */
  at?: string;
}

/** The standard buttons a screen lists by verb: name, English name, position, endpoint below the API base. */
export const STANDARD_BUTTONS: Record<string, { name: string; nameEn: string; action: 0 | 1 | 2 | 3; endpoint: string }> = {
  add: { name: '新增', nameEn: 'Add', action: 1, endpoint: 'submit' },
  edit: { name: '修改', nameEn: 'Edit', action: 2, endpoint: 'submit' },
  delete: { name: '删除', nameEn: 'Delete', action: 3, endpoint: 'remove' },
  view: { name: '查看', nameEn: 'View', action: 2, endpoint: 'view' },
  export: { name: '导出', nameEn: 'Export', action: 1, endpoint: 'export' },
  import: { name: '导入', nameEn: 'Import', action: 1, endpoint: 'import' },
};

const POSITIONS = { none: 0, toolbar: 1, row: 2, both: 3 } as const;

/** One entry of menus.json (already valid against its schema). */
export interface MenuEntry {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  icon?: string;
  api?: string;
  buttons?: string[];
  extraButtons?: Array<{ code: string; name: string; nameEn: string; position?: keyof typeof POSITIONS }>;
  children?: MenuEntry[];
}

/** Expand the compact entries of menus.json (`menus`, at `base`) into the rows' tree. */
export function expandMenus(entries: MenuEntry[], base = '/menus'): SeedMenu[] {
  return entries.map((e, i) => {
    const at = `${base}/${i}`;
    const api = e.api ?? e.path;
    const std = e.buttons ?? [];
    const button = (code: string, alias: string, name: string, nameEn: string, action: 0 | 1 | 2 | 3, sort: number, path: string, where: string): SeedMenu => ({
      code, name, nameEn, path, source: '', sort, category: 2, action, isOpen: 1, alias, children: [], at: where,
    });
    const children = [
      ...std.map((verb, j) => {
        const b = STANDARD_BUTTONS[verb];
        return button(`${e.code}_${verb}`, verb, b.name, b.nameEn, b.action, j + 1, `${api}/${b.endpoint}`, `${at}/buttons/${j}`);
      }),
      ...(e.extraButtons ?? []).map((b, j) =>
        button(b.code, b.code.startsWith(`${e.code}_`) ? b.code.slice(e.code.length + 1) : b.code, b.name, b.nameEn, POSITIONS[b.position ?? 'row'], std.length + j + 1, api, `${at}/extraButtons/${j}/code`),
      ),
      ...expandMenus(e.children ?? [], `${at}/children`),
    ];
    return { code: e.code, name: e.name, nameEn: e.nameEn, path: e.path, source: e.icon ?? '', sort: i + 1, category: 1, action: 0, isOpen: 1, alias: 'menu', children, at: `${at}/code` };
  });
}

/** Every menu and button code of the tree (flattened). */
export function seedMenuCodes(nodes: SeedMenu[]): string[] {
  return nodes.flatMap((n) => [n.code, ...seedMenuCodes(n.children)]);
}

/** Codes the `user` role gets: the canteen section read-only (menus, *_view, *_export). */
export function userRoleCodes(nodes: SeedMenu[]): string[] {
  const canteen = nodes.find((m) => m.code === 'canteen');
  const out: string[] = [];
  const walk = (n: SeedMenu) => {
    if (n.category === 1 || n.code.endsWith('_view') || n.code.endsWith('_export')) out.push(n.code);
    n.children.forEach(walk);
  };
  if (canteen) walk(canteen);
  return out;
}
