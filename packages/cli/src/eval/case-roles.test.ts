import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { checkCaseRoles } from './case-roles.ts';
import { parseCaseFile } from './load-case-file.ts';

const file = parseCaseFile(
  `
defaults:
  scope: org=acme,user=maria
cases:
  - name: roles
    setup:
      - content: Our budget is $4,200.
        access: manger
    actions:
      - remember: { entity: roof, key: budget, value: "$4,000", access: admin, principal: { id: lee, role: boss } }
    recall:
      query: budget?
      principal: { id: maria, role: member }
    expect:
      contains: budget
`,
  'cases.yaml',
);

describe('checkCaseRoles', () => {
  it('names each role the policy does not know, with the case and the field', () => {
    let error: unknown;
    try {
      checkCaseRoles(file, 'cases.yaml', ['member', 'manager', 'admin']);
    } catch (caught) {
      error = caught;
    }
    expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
    expect((error as StrataError).details?.issues).toEqual([
      {
        path: 'cases[0].setup[0].access',
        caseName: 'roles',
        message: `role "manger" is not one of the policy's roles: member, manager, admin`,
      },
      {
        path: 'cases[0].actions[0].remember.principal.role',
        caseName: 'roles',
        message: `role "boss" is not one of the policy's roles: member, manager, admin`,
      },
    ]);
  });

  it("accepts the roles of the user's policy", () => {
    expect(() => checkCaseRoles(file, 'cases.yaml', ['member', 'manger', 'boss', 'admin'])).not.toThrow();
  });
});
