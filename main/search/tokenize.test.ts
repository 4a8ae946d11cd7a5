import { describe, expect, it } from 'vitest';
import { analyze, contentWords, splitWords, stem } from './tokenize';

describe('splitWords', () => {
  it('splits snake_case, kebab-case and MCP names', () => {
    expect(splitWords('mcp__github__create_issue')).toEqual(['mcp', 'github', 'create', 'issue']);
    expect(splitWords('list-pull-requests')).toEqual(['list', 'pull', 'requests']);
  });

  it('splits camelCase and acronyms, keeping acronym plurals whole', () => {
    expect(splitWords('getIssueComments')).toEqual(['get', 'issue', 'comments']);
    expect(splitWords('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
    expect(splitWords('listURLs and IDs')).toEqual(['list', 'urls', 'and', 'ids']);
  });

  it('keeps letter-digit names whole and also splits them', () => {
    expect(splitWords('sha256')).toEqual(['sha256', 'sha', '256']);
    expect(splitWords('s3 ec2')).toEqual(['s3', '3', 'ec2', 'ec', '2']);
    expect(splitWords('base64Encode')).toEqual(['base64', 'base', '64', 'encode']);
  });

  it('handles non-ASCII letters and punctuation', () => {
    expect(splitWords('ÜberGröße, naïve café!')).toEqual(['über', 'größe', 'naïve', 'café']);
    expect(splitWords('')).toEqual([]);
    expect(splitWords('--__--')).toEqual([]);
  });
});

describe('contentWords and stemming', () => {
  it('drops stopwords and single letters but keeps particles that tell tools apart', () => {
    expect(contentWords('Turn off the lights, e.g. in a room')).toEqual(['turn', 'off', 'lights', 'room']);
  });

  it('brings word forms to one stem', () => {
    expect(new Set(['create', 'creates', 'created', 'creating'].map(stem)).size).toBe(1);
    expect(stem('issues')).toBe(stem('issue'));
    expect(analyze('Creating issues')).toEqual(analyze('create issue'));
  });
});
