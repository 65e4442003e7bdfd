import { describe, expect, it } from 'vitest';
import * as z from '../../lib/zod';
import { createMcpTool } from '../mcp/tool-adapter';
import { type AnyTool, buildTool } from '../tool';
import { keywordSearch, nameWords, searchDeferredTools } from './search';
import { syntheticMcpServerTools } from './synthetic-tools';

const mcp = (server: string, name: string, description: string): AnyTool =>
  createMcpTool(server, { name, description }, async () => ({ content: [] }));
const builtin = (name: string, description: string): AnyTool =>
  buildTool({
    name,
    tier: 'read',
    inputSchema: z.object({}),
    prompt: description,
    call: async () => ({ data: '' }),
  });
const names = (tools: readonly AnyTool[]) => tools.map((tool) => tool.name);

describe('nameWords', () => {
  it('splits MCP names on __ and _, camelCase and acronyms, without the mcp prefix', () => {
    expect(nameWords('mcp__github__create_issue')).toEqual(['github', 'create', 'issue']);
    expect(nameWords('mcp__my-jira__getIssueByID')).toEqual(['my', 'jira', 'get', 'issue', 'by', 'id']);
    expect(nameWords('ToolSearch')).toEqual(['tool', 'search']);
    expect(nameWords('NotebookEdit')).toEqual(['notebook', 'edit']);
    expect(nameWords('HTTPRequest')).toEqual(['http', 'request']);
  });
});

describe('keyword search', () => {
  const tools = [
    mcp('github', 'create_issue', 'Open a new issue in a repository.'),
    mcp('github', 'list_pull_requests', 'List pull requests; each names its linked issue.'),
    mcp('slack', 'send_message', 'Post a message to a channel.'),
    mcp('slack', 'list_channels', 'List channels of the workspace.'),
    mcp('mail', 'send_mail', 'Send an email; mention a github issue in the subject to link it.'),
    builtin('NotebookEdit', 'Edit a cell of a Jupyter notebook.'),
  ];

  it('ranks a hit in the name above a hit in the description', () => {
    const found = names(keywordSearch(tools, 'issue', 5));
    expect(found[0]).toBe('mcp__github__create_issue');
    expect(found).toEqual([
      'mcp__github__create_issue',
      'mcp__github__list_pull_requests',
      'mcp__mail__send_mail',
    ]);
  });

  it('adds up the terms: server and action together beat either alone', () => {
    // send_mail hits "send" in its name and its description; list_channels hits "slack" only.
    expect(names(keywordSearch(tools, 'slack send', 5))).toEqual([
      'mcp__slack__send_message',
      'mcp__mail__send_mail',
      'mcp__slack__list_channels',
    ]);
  });

  it('weighs an MCP name hit above a built-in name hit', () => {
    const both = [builtin('EditCell', 'Change things.'), mcp('nb', 'edit_cell', 'Change things.')];
    expect(names(keywordSearch(both, 'cell', 5))).toEqual(['mcp__nb__edit_cell', 'EditCell']);
  });

  it('requires a +term in the name and ranks by the rest', () => {
    expect(names(keywordSearch(tools, '+slack send', 5))).toEqual([
      'mcp__slack__send_message',
      'mcp__slack__list_channels',
    ]);
    // "github" is only in the mail tool's description: not enough for +github.
    expect(names(keywordSearch(tools, '+github send', 5))).not.toContain('mcp__mail__send_mail');
  });

  it('finds a built-in by a word of its camelCase name, case-insensitively', () => {
    expect(names(keywordSearch(tools, 'Notebook', 5))).toEqual(['NotebookEdit']);
  });

  it('returns at most max_results, best first, ties by name', () => {
    const many = syntheticMcpServerTools('crm', 160);
    const found = keywordSearch(many, 'invoice', 5);
    expect(found).toHaveLength(5);
    expect(names(found)).toEqual([...names(found)].sort());
    expect(names(found).every((name) => name.includes('invoice'))).toBe(true);
    expect(keywordSearch(many, 'invoice', 2)).toHaveLength(2);
  });

  it('finds nothing for words no tool has', () => {
    expect(keywordSearch(tools, 'kubernetes', 5)).toEqual([]);
  });
});

describe('select:', () => {
  const tools = syntheticMcpServerTools('github', 20);

  it('loads exactly the named tools in the order given, ignoring spaces and case', () => {
    const outcome = searchDeferredTools(
      tools,
      'select: mcp__github__list_issue, MCP__GITHUB__create_issue',
      5,
    );
    expect(names(outcome.matches)).toEqual(['mcp__github__list_issue', 'mcp__github__create_issue']);
    expect(outcome.notFound).toEqual([]);
  });

  it('is not limited by max_results and reports the names it does not know', () => {
    const wanted = names(tools).slice(0, 7);
    const outcome = searchDeferredTools(tools, `select:${wanted.join(',')},Bash,mcp__nope__x`, 5);
    expect(names(outcome.matches)).toEqual(wanted);
    expect(outcome.notFound).toEqual(['Bash', 'mcp__nope__x']);
  });
});
