import { MAX_JSON_DEPTH, jsonDepth } from '../../src/api/plugins/json-body';

describe('jsonDepth', () => {
  it('counts the deepest nesting of arrays and objects, ignoring brackets inside strings', () => {
    expect(jsonDepth('{}')).toBe(1);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[","b":[]}')).toBe(2);
    expect(jsonDepth('[[],[[]],[]]')).toBe(3);
    expect(jsonDepth('"x"')).toBe(0);
  });

  it('sets a limit deep enough for every body the API takes', () => {
    expect(MAX_JSON_DEPTH).toBeGreaterThanOrEqual(32);
  });
});
