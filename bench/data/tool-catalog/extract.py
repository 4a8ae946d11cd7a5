#!/usr/bin/env python3
"""Builds bench/data/tool-catalog/catalog.json from public MCP servers' own published tool definitions.

Reads git mirrors (one directory per repository, `owner+name/repo`, bare) at the commits named below and
writes one entry per tool: name (mcp__<server>__<tool>), description, parameters (JSON Schema) and source
(repository@commit:path). Nothing is written by hand: descriptions and parameters are the servers' own.

    python3 bench/data/tool-catalog/extract.py /path/to/mirrors > bench/data/tool-catalog/catalog.json
    npx prettier --write bench/data/tool-catalog/catalog.json
"""
import ast, json, re, subprocess, sys

MIRRORS = sys.argv[1] if len(sys.argv) > 1 else '/work/.mirror'
SOURCES = {
    'github/github-mcp-server': '64a49f34d076b6f5917dae1424521d43c7bcae84',
    'modelcontextprotocol/servers': '76d64c822f5125032f89eb71dbdb94e42b434821',
    'microsoft/playwright-mcp': '7e0457a7cbf88823bf0146d12c46ae12c6818247',
    'containers/kubernetes-mcp-server': '55749981693f71c9f9a573bfab229eccd4f124ea',
    'grafana/mcp-grafana': 'c6e492b39f493f7e5856eb4ab419bc918b083716',
    'mongodb-js/mongodb-mcp-server': '36a405e33817577f0c5a34d6d9479c0285fac5e4',
    'sooperset/mcp-atlassian': '436b37e4854aacad0aee3ce47baafb6fdb4162a7',
    'korotovsky/slack-mcp-server': 'b24b1b08af740d5c710f556d45a5b8ba3acc0ebc',
    'makenotion/notion-mcp-server': '1d38420769c8a1fe2d583ff1e7d2d108d4eb0b30',
}


def git(repo, *args):
    path = f"{MIRRORS}/{repo.replace('/', '+')}/repo"
    return subprocess.run(['git', '-C', path, *args], check=True, capture_output=True, text=True).stdout


def show(repo, path):
    return git(repo, 'show', f'{SOURCES[repo]}:{path}')


def files(repo):
    return git(repo, 'ls-tree', '-r', '--name-only', SOURCES[repo]).splitlines()


def entry(server, tool, description, params, repo, path, required=()):
    properties = {}
    for key, kind, text in params:
        prop = {'type': kind or 'string'}
        if text:
            prop['description'] = text.strip()
        properties[key] = prop
    schema = {'type': 'object', 'properties': properties}
    if required:
        schema['required'] = list(required)
    return {
        'name': f'mcp__{server}__{tool}',
        'description': re.sub(r'[ \t]+', ' ', description.strip()),
        'parameters': schema,
        'source': f'{repo}@{SOURCES[repo][:12]}:{path}',
    }


def github():
    repo = 'github/github-mcp-server'
    out = []
    for path in files(repo):
        if '__toolsnaps__/' in path and path.endswith('.snap'):
            snap = json.loads(show(repo, path))
            schema = snap.get('inputSchema') or {'type': 'object', 'properties': {}}
            out.append({'name': f"mcp__github__{snap['name']}", 'description': snap.get('description', ''),
                        'parameters': schema, 'source': f'{repo}@{SOURCES[repo][:12]}:{path}'})
    return out


# "- **name** - description" with "  - `param` (`type`) - text" lines (kubernetes-mcp-server README).
def bold_dash_list(repo, path, server, start, end):
    text = show(repo, path)
    text = text[text.index(start):text.index(end)]
    out = []
    for block in re.split(r'\n(?=- \*\*)', text):
        head = re.match(r'- \*\*([\w.-]+)\*\* - (.*)', block)
        if not head:
            continue
        params = [(m[1], m[2], m[3]) for m in re.finditer(r'\n\s+- `(\w+)` \(`(\w+)`\)(?: \*\*\(required\)\*\*)? - (.*)', block)]
        out.append(entry(server, head[1], head[2], params, repo, path))
    return out


# playwright-mcp README: "- **name**", "  - Description: ...", "  - Parameters:", "    - `p` (type, optional): text".
def playwright():
    repo, path = 'microsoft/playwright-mcp', 'README.md'
    out, seen = [], set()
    for block in re.split(r'\n(?=- \*\*browser_)', show(repo, path)):
        head = re.match(r'- \*\*(browser_\w+)\*\*', block)
        desc = re.search(r'- Description: (.*)', block)
        if not head or not desc or head[1] in seen:
            continue
        seen.add(head[1])
        params = [(m[1], m[2], m[3]) for m in re.finditer(r'\n\s+- `(\w+)` \((\w+)[^)]*\): (.*)', block)]
        out.append(entry('playwright', head[1], desc[1], params, repo, path))
    return out


# modelcontextprotocol/servers READMEs: "- **name**" or "N. `name`" followed by indented description lines.
def reference_servers():
    repo = 'modelcontextprotocol/servers'
    out = []
    for server in ['filesystem', 'git', 'memory', 'fetch']:
        path = f'src/{server}/README.md'
        text = show(repo, path)
        for block in re.split(r'\n(?=- \*\*\w+\*\*\s*$|\d+\. `\w+`)', text, flags=re.M):
            head = re.match(r'(?:- \*\*(\w+)\*\*|\d+\. `(\w+)`)\s*\n((?:\s+.*\n?)*)', block)
            if not head:
                continue
            name = head[1] or head[2]
            body = head[3]
            lines = [re.sub(r'^\s*-\s*', '', l) for l in body.splitlines() if l.strip()]
            desc_lines = [l for l in lines if not re.match(r'(Inputs?|Returns|Features):?', l) and not l.startswith('`')]
            params = [(m[1], m[2].rstrip('[]'), m[3] or '') for m in re.finditer(r'`(\w+)` \((\w+(?:\[\])?)[^)]*\)(?::\s*(.*))?', body)]
            if not desc_lines:
                continue
            description = ' '.join(desc_lines[:2]).split(' ##')[0]
            out.append(entry(server, name, description, params, repo, path))
    return out


# mongodb-mcp-server README: "- `name` - description".
def mongodb():
    repo, path = 'mongodb-js/mongodb-mcp-server', 'README.md'
    text = show(repo, path)
    text = text[text.index('## 🛠️ Supported Tools') if '## 🛠️ Supported Tools' in text else 0:]
    out, seen = [], set()
    for m in re.finditer(r'^- `([a-z][\w-]+)` - (.*)$', text, flags=re.M):
        if m[1] in seen or m[1] in ('mongodb', 'atlas', 'read', 'create', 'update', 'delete', 'metadata', 'connect',
                                  'config', 'debug', 'exported-data', 'mcpUI'):
            continue
        seen.add(m[1])
        out.append(entry('mongodb', m[1], m[2], [], repo, path))
    return out


# mcp-grafana README table: "| `name` | Category | Description | ... |".
def grafana():
    repo, path = 'grafana/mcp-grafana', 'README.md'
    out = []
    for m in re.finditer(r'^\| `(\w+)`\s*\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|', show(repo, path), flags=re.M):
        # The same README has tables of exported metrics and their labels: those are not tools.
        if m[2] in ('Histogram', 'Counter', 'Gauge') or m[3].startswith('(') or not m[3]:
            continue
        out.append(entry('grafana', m[1], f'{m[3]} ({m[2]})', [], repo, path))
    return out


# mcp-atlassian: FastMCP tools in Python, read with ast (docstring's first paragraph, Field descriptions).
def atlassian():
    repo = 'sooperset/mcp-atlassian'
    out = []
    for server in ['jira', 'confluence']:
        path = f'src/mcp_atlassian/servers/{server}.py'
        tree = ast.parse(show(repo, path))
        for node in tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if not any(isinstance(d, ast.Call) and getattr(d.func, 'attr', '') == 'tool' for d in node.decorator_list):
                continue
            doc = (ast.get_docstring(node) or '').split('\n\n')[0]
            params = []
            for arg in node.args.args:
                if arg.arg == 'ctx':
                    continue
                text = ''
                for sub in ast.walk(arg.annotation) if arg.annotation else []:
                    if isinstance(sub, ast.keyword) and sub.arg == 'description':
                        try:
                            text = ast.literal_eval(sub.value)
                        except ValueError:
                            text = ''
                params.append((arg.arg, 'string', text))
            out.append(entry('atlassian', f'{server}_{node.name}', doc, params, repo, path))
    return out


# slack-mcp-server README: "### N. name:" then a description line and "- `param` (type, ...): text" lines.
def slack():
    repo, path = 'korotovsky/slack-mcp-server', 'README.md'
    out = []
    for block in re.split(r'\n(?=### \d+\. )', show(repo, path)):
        head = re.match(r'### \d+\. (\w+):?\s*\n(.*)', block)
        if not head:
            continue
        body = block.split('\n### ')[0].split('\n## ')[0]
        params = [(m[1], m[2], m[3]) for m in re.finditer(r'\n\s+- `(\w+)` \((\w+)[^)]*\):\s*(.*)', body)]
        out.append(entry('slack', head[1], head[2], params, repo, path))
    return out


def ref(spec, pointer):
    node = spec
    for part in pointer.lstrip('#/').split('/'):
        node = node[part]
    return node


# Notion's MCP server turns each OpenAPI operation into a tool named after its operationId.
def notion():
    repo, path = 'makenotion/notion-mcp-server', 'scripts/notion-openapi.json'
    spec = json.loads(show(repo, path))
    out = []
    for route, methods in spec['paths'].items():
        for method, op in methods.items():
            if not isinstance(op, dict) or 'operationId' not in op:
                continue
            resolve = lambda p: ref(spec, p['$ref']) if '$ref' in p else p
            params = [(p['name'], (p.get('schema') or {}).get('type', 'string'), p.get('description', ''))
                      for p in map(resolve, op.get('parameters', []))]
            body = (((resolve(op.get('requestBody') or {}) or {}).get('content') or {}).get('application/json') or {}).get('schema') or {}
            body = resolve(body)
            for key, value in (body.get('properties') or {}).items():
                params.append((key, value.get('type', 'object') if isinstance(value, dict) else 'object', value.get('description', '') if isinstance(value, dict) else ''))
            desc = op.get('summary', '') + ('. ' + op['description'] if op.get('description') else '')
            out.append(entry('notion', op['operationId'], desc, params, repo, path))
    return out


tools = (github() + reference_servers() + playwright()
         + bold_dash_list('containers/kubernetes-mcp-server', 'README.md', 'kubernetes',
                          '<!-- AVAILABLE-TOOLSETS-TOOLS-START -->', '<!-- AVAILABLE-TOOLSETS-TOOLS-END -->')
         + grafana() + mongodb() + atlassian() + slack() + notion())
unique = {}
for tool in tools:
    unique.setdefault(tool['name'], tool)
json.dump(list(unique.values()), sys.stdout, indent=1, ensure_ascii=False)
sys.stdout.write('\n')
