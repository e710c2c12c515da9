/**
 * One broken fixture per kind of mistake (tests/lint/fixtures/broken/<kind>.json, each a copy of
 * fixtures/valid/fx.json with one thing wrong): the lint must report exactly that problem, at that
 * JSON pointer, with that message, and nothing else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyRegistry, compileMetaSchema, registryDrift } from '../../src/server/meta-schema.js';
import { WIDGET_SPECS, extendRegistry, widgetNames } from '../../src/shared/registry.js';
import { ROOT, lintFixtures } from './helpers.js';

const CASES: Array<[string, Array<[string, string]>]> = [
  [
    "api-not-served",
    [
      ["/resource/api", "GET /api/fx-shop/list is not served by the server"],
      ["/resource/api", "GET /api/fx-shop/detail is not served by the server"],
    ],
  ],
  [
    "bad-enum-value",
    [
      ["/list/search/0/op", "must be one of: \"equal\", \"contains\", \"prefix\", \"dateRange\", \"range\", \"under\""],
    ],
  ],
  [
    "bad-field-name",
    [
      ["/schema/properties/shop_name", "invalid key \"shop_name\": must be a camelCase field name such as \"merchantName\" (the column is its snake_case)"],
    ],
  ],
  [
    "column-not-a-field",
    [
      ["/list/columns/1/field", "\"statu\" is not a field of this screen nor an audit field (did you mean \"status\"?)"],
    ],
  ],
  [
    "column-write-only",
    [
      ["/list/columns/6/field", "\"psw\" is write-only: the server never sends it back"],
    ],
  ],
  [
    "condition-dictionary-value",
    [
      ["/schema/allOf/0/if/properties/enableFlag/enum/1", "4 is not a key of dictionary \"merchant_enable_flag\" (keys: 1, 2, 3)"],
    ],
  ],
  [
    "condition-not-const",
    [
      ["/schema/allOf/0/if/properties/enableFlag/minimum", "unknown key \"minimum\": a condition tests one field with exactly one of \"const\" or \"enum\""],
    ],
  ],
  [
    "condition-not-required",
    [
      ["/schema/allOf/0/if", "list \"enableFlag\" in \"required\" of the condition, otherwise it also holds when \"enableFlag\" is empty"],
    ],
  ],
  [
    "condition-type",
    [
      ["/schema/allOf/0/if/properties/enableFlag/const", "\"3\" does not fit \"enableFlag\", which is integer"],
    ],
  ],
  [
    "condition-unknown-field",
    [
      ["/schema/allOf/0/if/properties/enableFlg", "\"enableFlg\" is not a field of this screen (did you mean \"enableFlag\"?)"],
    ],
  ],
  [
    "default-page-size",
    [
      ["/list/defaultPageSize", "20 is not one of pageSizes (10, 30, 50, 100, 200)"],
    ],
  ],
  [
    "dict-widget-without-dict",
    [
      ["/uiSchema/fee/ui:widget", "the dict widget needs \"x-dict\" on field \"fee\""],
    ],
  ],
  [
    "dictionary-value",
    [
      ["/schema/properties/status/default", "9 is not a key of dictionary \"merchant_status\" (keys: 1, 2, 3)"],
    ],
  ],
  [
    "duplicate-action",
    [
      ["/list/actions/1/name", "duplicate action name \"reset\" (also /list/actions/0)"],
    ],
  ],
  [
    "duplicate-field-in-branch",
    [
      ["/schema/allOf/0/then/properties/name", "field \"name\" is already declared at /schema/properties/name"],
    ],
  ],
  [
    "duplicate-key",
    [
      ["/schema/properties/name", "duplicate key \"name\" (JSON keeps only the last one)"],
    ],
  ],
  [
    "endpoint-not-served",
    [
      ["/list/actions/0/endpoint", "GET /api/fx/reset/payPsw is not served by the server"],
    ],
  ],
  [
    "i18n-missing-both",
    [
      ["/schema/properties/fee/title", "i18n key \"fx.field.feeRatio\" is missing in locales/zh.json and locales/en.json"],
    ],
  ],
  [
    "i18n-missing-en",
    [
      ["/list/actions/0/confirm", "i18n key \"fx.confirm.zhOnly\" is missing in locales/en.json"],
    ],
  ],
  [
    "invalid-json",
    [
      ["/", "invalid JSON: expected \",\" or \"}\", found \"\"\" at line 6, column 3"],
    ],
  ],
  [
    "menu-path",
    [
      ["/route", "menu \"fx\" has the path \"/fx/fx\" in the menu tree (schemas/data/menus.json), not \"/fx/other\""],
    ],
  ],
  [
    "message-without-rule",
    [
      ["/uiSchema/name/ui:messages/pattern", "\"name\" has no \"pattern\" rule, so this message is never shown"],
    ],
  ],
  [
    "missing-key",
    [
      ["/resource", "missing required key \"table\""],
    ],
  ],
  [
    "required-not-a-field",
    [
      ["/schema/required/2", "\"nam\" is not a field of this screen (did you mean \"name\"?)"],
    ],
  ],
  [
    "old-version",
    [
      ["/list/columns/0/sortabel", "unknown key \"sortabel\" (did you mean \"sortable\"?) (in the document as migrated from schemaVersion 0 to 1)"],
    ],
  ],
  [
    "row-rule-value",
    [
      ["/list/actions/0/visibleWhen/0/eq", "3 is not a key of dictionary \"yes_no\" (keys: 1, 2)"],
    ],
  ],
  [
    "schema-path",
    [
      ["/$schema", "must be the relative path from this file to schemas/meta/screen.schema.json: \"../../../../schemas/meta/screen.schema.json\""],
    ],
  ],
  [
    "schema-version",
    [
      ["/schemaVersion", "schemaVersion 2 is newer than this code understands (CURRENT_SCHEMA_VERSION is 1)"],
    ],
  ],
  [
    "search-contains-dict",
    [
      ["/list/search/1/op", "contains needs a text field (not a date or dictionary); \"status\" is integer"],
    ],
  ],
  [
    "search-date-range-type",
    [
      ["/list/search/2/op", "dateRange needs a date or date-time field; \"name\" is string"],
    ],
  ],
  [
    "search-not-a-field",
    [
      ["/list/search/0/field", "\"title\" is not a field of this screen nor an audit field"],
    ],
  ],
  [
    "search-range-type",
    [
      ["/list/search/2/op", "range needs a number or integer field; \"logo\" is string"],
    ],
  ],
  [
    "sort-array",
    [
      ["/list/columns/6/sortable", "\"period\" cannot be sorted: it is array (stored as jsonb)"],
    ],
  ],
  [
    "sort-not-a-column",
    [
      ["/list/columns/4/sortable", "\"total\" cannot be sorted: it is not a stored column (x-virtual)"],
    ],
  ],
  [
    "text-not-i18n-key",
    [
      ["/title", "must be an i18n key such as \"merchant.field.merchantName\" (the texts go in locales/zh.json and locales/en.json)"],
    ],
  ],
  [
    "toolbar-selection",
    [
      ["/list/actions/0/selection", "a selection action needs \"selection\": true in /list"],
    ],
  ],
  [
    "ui-not-a-field",
    [
      ["/uiSchema/nmae", "\"nmae\" is not a field of this screen (did you mean \"name\"?)"],
    ],
  ],
  [
    "ui-order-audit-field",
    [
      ["/uiSchema/ui:order/4", "\"createTime\" is an audit field: dialogs show only the document's own fields (declare it in schema.properties with \"readOnly\": true to show it)"],
    ],
  ],
  [
    "ui-order-not-a-field",
    [
      ["/uiSchema/ui:order/1", "\"state\" is not a field of this screen"],
    ],
  ],
  [
    "unknown-action-permission",
    [
      ["/list/actions/0/permission", "button \"fx_reset_psw\" is not in the menu tree (schemas/data/menus.json)"],
    ],
  ],
  [
    "unknown-builtin-permission",
    [
      ["/list/builtins/2", "button \"fy_delete\" is not in the menu tree (schemas/data/menus.json)"],
    ],
  ],
  [
    "unknown-dictionary",
    [
      ["/schema/properties/status/x-dict", "dictionary \"merchant_statu\" is not defined in schemas/data/dictionaries/ (did you mean \"merchant_status\"?)"],
    ],
  ],
  [
    "unknown-key",
    [
      ["/schema/properties/name/maxlength", "unknown key \"maxlength\" (did you mean \"maxLength\"?)"],
    ],
  ],
  [
    "unknown-menu-parent",
    [
      ["/menu/parent", "parent menu \"canten\" is not in the menu tree (schemas/data/menus.json) (did you mean \"canteen\"?)"],
    ],
  ],
  [
    "unknown-menu",
    [
      ["/resource/permissionPrefix", "menu \"fz\" is not in the menu tree (schemas/data/menus.json) (did you mean \"fx\"?); add it there, or add a \"menu\" key to register the screen automatically"],
      ["/list/builtins/0", "button \"fz_view\" is not in the menu tree (schemas/data/menus.json)"],
    ],
  ],
  [
    "upload-without-limits",
    [
      ["/uiSchema/logo", "an upload widget needs ui:options.maxSize (bytes)"],
    ],
  ],
  [
    "unknown-widget",
    [
      ["/uiSchema/name/ui:widget", "must be one of: \"text\", \"textarea\", \"password\", \"number\", \"dict\", \"select\", \"date\", \"datetime\", \"daterange\", \"datetimerange\", \"month\", \"hidden\", \"upload\", \"file\", \"json\", \"cron\", \"treeSelect\", \"icon\", \"bpmn\" (did you mean \"textarea\"?)"],
    ],
  ],
  [
    "conditional-without-then",
    [
      ["/schema/allOf/0", "a conditional needs \"then\" and/or \"else\" next to its \"if\""],
    ],
  ],
  [
    "bad-ui-key",
    [
      ["/uiSchema/ui:oder", "invalid key \"ui:oder\": must be \"ui:order\" or a field name"],
    ],
  ],
  [
    "bad-regex",
    [
      ["/schema/properties/name/pattern", "must be a valid regular expression"],
    ],
  ],
  [
    "show-not-a-row-read",
    [
      ["/list/actions/1/position", "a \"show\" action lists the records of one row: its position is \"row\""],
      ["/list/actions/1/confirm", "a \"show\" action changes nothing, so it asks no confirmation"],
    ],
  ],
  [
    "navigate-calls",
    [
      ["/list/actions/1", "a navigate action calls nothing: no method, endpoint or form"],
    ],
  ],
  [
    "navigate-bad",
    [
      ["/list/actions/1/position", "a \"navigate\" action opens the page of one row: its position is \"row\""],
      ["/list/actions/1/navigate", "\"nmae\" is not a field of this screen (did you mean \"name\"?)"],
    ],
  ],
  [
    "dialog-bad",
    [
      ["/list/actions/1/position", "a \"dialog\" action shows something of one row: its position is \"row\""],
      ["/list/actions/1/method", "a \"dialog\" action only reads: its method is \"GET\""],
      ["/list/actions/1/dialog/name", "\"flowDiagramm\" is not a registered action dialog (flowDiagram)"],
      ["/list/actions/1/dialog/params/processInstanceId", "\"psw\" is write-only: rows never carry it"],
      ["/list/actions/1/endpoint", "POST /api/fx/reset/loginPsw is not served by the server"],
    ],
  ],
  [
    "show-unknown-screen",
    [
      ["/list/actions/1/show/screen", "\"fz\" is not a screen document (ids: schemas/ and SCHEMA_DIRS) (did you mean \"fx\"?)"],
    ],
  ],
  [
    "source-unknown-key",
    [
      ["/uiSchema/status/ui:options/sources/0", "missing required key \"label\""],
      ["/uiSchema/status/ui:options/sources/0/lable", "unknown key \"lable\" (did you mean \"label\"?)"],
    ],
  ],
  [
    "unknown-x-key",
    [
      ["/schema/properties/psw/x-pasword", "unknown key \"x-pasword\" (did you mean \"x-password\"?)"],
    ],
  ],
  [
    "misspelt-x-dict",
    [
      ["/schema/properties/status/x-dcit", "unknown key \"x-dcit\" (did you mean \"x-dict\"?)"],
    ],
  ],
  [
    "unknown-ui-key",
    [
      ["/uiSchema/psw/ui:widgte", "unknown key \"ui:widgte\" (did you mean \"ui:widget\"?)"],
    ],
  ],
  [
    "option-not-read",
    [
      ["/uiSchema/name/ui:options/rows", "the field's default widget \"text\" (no \"ui:widget\") does not read ui:options.rows (it reads: counter, tip, preview)"],
      ["/uiSchema/status/ui:options/multiple", "the \"dict\" widget does not read ui:options.multiple (it reads: dictCode, numeric, tip, preview)"],
    ],
  ],
  [
    "layout-route-not-in-menu",
    [
      ["/route", "menu \"fxmd\" has the path \"/fx/md\" in the menu tree (schemas/data/menus.json), not \"/fx/other\": no menu entry leads to this screen"],
    ],
  ],
  [
    "layout-permission",
    [
      ["/permission", "menu \"fxmdx\" is not in the menu tree (schemas/data/menus.json) (did you mean \"fxmd\"?)"],
    ],
  ],
  [
    "layout-unknown-screen",
    [
      ["/view/detail", "\"fz\" is not a screen document (ids: schemas/ and SCHEMA_DIRS) (did you mean \"fx\"?)"],
    ],
  ],
];

describe('schema lint: each kind of mistake is caught', () => {
  it('the valid fixture lints clean', () => {
    expect(lintFixtures('valid/fx.json')).toEqual([]);
  });

  it('every broken fixture has its case (and every case its fixture)', () => {
    const files = fs.readdirSync(path.join(ROOT, 'tests/lint/fixtures/broken')).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual(CASES.map(([k]) => k).sort());
  });

  it.each(CASES)('%s', (kind, expected) => {
    const file = `broken/${kind}.json`;
    expect(lintFixtures(file)).toEqual(expected.map(([pointer, message]) => ({ file, pointer, message })));
  });

  it('ids, routes, APIs and permission prefixes are unique across documents', () => {
    expect(lintFixtures('valid/fx.json', 'set/fx-twin.json')).toEqual([
      { file: 'valid/fx.json', pointer: '/id', message: '"fx" is also used by set/fx-twin.json' },
      { file: 'valid/fx.json', pointer: '/route', message: '"/fx/fx" is also used by set/fx-twin.json' },
      { file: 'valid/fx.json', pointer: '/resource/api', message: '"/api/fx" is also used by set/fx-twin.json' },
      { file: 'valid/fx.json', pointer: '/resource/permissionPrefix', message: '"fx" is also used by set/fx-twin.json' },
    ]);
  });

  it('an older schemaVersion is migrated (by the server migrations) before it is checked', () => {
    expect(lintFixtures('old/fx-v0.json')).toEqual([]);
  });

  it('a missing path is reported, directories are walked', () => {
    expect(lintFixtures('nope.json')).toEqual([{ file: 'nope.json', pointer: '/', message: 'no such file or directory' }]);
    expect(lintFixtures('valid')).toEqual([]);
  });
});

describe('meta-schema, registry and runtime agree', () => {
  it('the static meta-schema names exactly the registry\'s widgets, ui:options, cells and views', () => {
    const meta = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/meta/screen.schema.json'), 'utf8'));
    expect(registryDrift(meta)).toEqual([]);
    expect([...meta.definitions.fieldUi.properties['ui:widget'].enum].sort()).toEqual(widgetNames().sort());
  });

  it('a registry name missing from the file is reported where the file lists them', () => {
    const meta = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/meta/screen.schema.json'), 'utf8'));
    meta.definitions.fieldUi.properties['ui:widget'].enum = meta.definitions.fieldUi.properties['ui:widget'].enum.filter((w: string) => w !== 'icon').concat('colour');
    expect(registryDrift(meta)).toEqual([
      { pointer: '/definitions/fieldUi/properties/ui:widget/enum', message: 'lacks the widget(s) "icon" of src/shared/registry.ts' },
      { pointer: '/definitions/fieldUi/properties/ui:widget/enum', message: 'names widget(s) "colour" that src/shared/registry.ts does not have' },
    ]);
  });

  it('a widget added to the registry is accepted by the validator the server and the lint compile', () => {
    const meta = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/meta/screen.schema.json'), 'utf8'));
    const doc = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/lint/fixtures/valid/fx.json'), 'utf8'));
    doc.uiSchema.name = { 'ui:widget': 'colour', 'ui:options': { palette: 'warm' } };
    expect(compileMetaSchema(applyRegistry(meta))(doc).map((p) => p.pointer)).toEqual(['/uiSchema/name/ui:widget', '/uiSchema/name/ui:options/palette']);
    const saved = structuredClone(WIDGET_SPECS);
    try {
      extendRegistry({ widgets: { colour: { options: ['palette'] } } });
      expect(compileMetaSchema(applyRegistry(meta))(doc)).toEqual([]);
    } finally {
      for (const k of Object.keys(WIDGET_SPECS)) if (!(k in saved)) delete WIDGET_SPECS[k];
    }
  });

  it('the runtime dialog model knows the same widgets', async () => {
    const { WIDGETS } = await import('../../src/runtime/model/dialog.js');
    expect([...WIDGETS].sort()).toEqual(widgetNames().sort());
  });
});
