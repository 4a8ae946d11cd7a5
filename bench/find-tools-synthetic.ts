// A deterministic catalogue of realistic-looking tools (real service names, verb + noun names, R2-style
// descriptions) for measuring find_tools at scale. Same input → same tools, no randomness.
import type { IndexedTool } from '../main/search/tool-index';

// Each domain: its services | nouns (singular, or singular/plural) | attributes its tools talk about.
const DOMAIN_LINES = [
  'zendesk intercom freshdesk helpscout | ticket, customer, macro, satisfaction rating | status, priority, requester, assignee, tags',
  'mailchimp sendgrid postmark brevo | campaign, subscriber, template, audience segment | subject line, send time, open rate, list, sender',
  'okta auth0 keycloak onelogin | user, group, application, session | email, role, status, last login, factor',
  'cloudflare route53 dnsimple netlify-dns | zone, dns record, firewall rule, worker | hostname, ttl, proxy status, region, route',
  'digitalocean linode vultr hetzner | droplet, volume, snapshot, load balancer | size, region, image, tags, ip address',
  'circleci jenkins buildkite travis | build, pipeline, job, artifact | branch, commit, status, duration, trigger',
  'bitbucket azure-devops gitea-cloud sourcehut | repository/repositories, pull request, branch/branches, commit | author, reviewer, target branch, state, title',
  'clickup monday basecamp smartsheet | task, board, project, milestone | assignee, due date, status, priority, labels',
  'box onedrive sharepoint pcloud | file, folder, shared link, file version | path, size, owner, modified time, permissions',
  'snowflake databricks redshift clickhouse | table, warehouse, query/queries, stage | schema, row count, column, cluster key, owner',
  'dynamodb firestore cosmosdb fauna | item, index/indexes, backup, stream | partition key, sort key, capacity, region, ttl',
  'pinecone weaviate qdrant milvus | vector, collection, namespace, embedding | dimension, metric, metadata filter, top k, score',
  'contentful sanity strapi storyblok | entry/entries, content type, asset, locale | title, slug, status, author, published date',
  'wordpress ghost webflow medium | post, page, comment, media file | title, author, category, tags, status',
  'woocommerce bigcommerce etsy magento | order, product, coupon, refund | total, currency, customer, status, sku',
  'paypal square braintree adyen | payment, payout, dispute, transaction | amount, currency, status, date, account',
  'quickbooks xero freshbooks wave | invoice, bill, expense, vendor | amount, due date, customer, tax, status',
  'gusto bamboohr workday rippling | employee, time off request, payroll run, department | manager, start date, salary, location, title',
  'greenhouse lever workable ashby | candidate, job opening, interview, offer | stage, recruiter, source, rating, status',
  'calendly cal-com acuity savvycal | booking, event type, availability slot, invitee | start time, duration, location, host, time zone',
  'docusign pandadoc hellosign signnow | envelope, signer, document template, signature | recipient, status, expiry date, order, message',
  'vimeo twitch wistia dailymotion | video, channel, playlist, caption | title, duration, privacy, views, language',
  'mattermost rocketchat zulip matrix | message, channel, thread, direct message | text, author, timestamp, reactions, mentions',
  'mixpanel amplitude posthog launchdarkly | event, funnel, cohort, feature flag | property, date range, conversion, segment, rollout',
  'opsgenie newrelic splunk honeycomb | alert, incident, monitor, log | severity, service, threshold, status, time range',
  'terraform pulumi spacelift env0 | workspace, state file, module, plan | variable, provider, version, resource, output',
  'vault doppler infisical akeyless | secret, policy/policies, token, certificate | path, ttl, role, version, issuer',
  '1password bitwarden lastpass dashlane | password, vault item, device, member | username, url, folder, last used, owner',
  'harvest toggl clockify hubstaff | time entry/time entries, client, timesheet, rate | hours, project, billable, date, note',
  'strava fitbit oura garmin | activity/activities, workout, sleep record, heart rate sample | date, duration, distance, calories, score',
  'alpaca coinbase kraken robinhood | quote, trade, position, watchlist | symbol, price, quantity, side, time',
  'evernote onenote obsidian bear | note, notebook, tag, attachment | title, content, created date, notebook, tags',
];

interface Domain {
  services: string[];
  nouns: Array<[string, string]>;
  attributes: string[];
}

const DOMAINS: Domain[] = DOMAIN_LINES.map((line) => {
  const [services = '', nouns = '', attributes = ''] = line.split(' | ');
  return {
    services: services.split(' '),
    nouns: nouns.split(', ').map((noun): [string, string] => {
      const [singular = noun, plural = `${noun}s`] = noun.split('/');
      return [singular, plural];
    }),
    attributes: attributes.split(', '),
  };
});

// verb, singular or plural noun, what line, purpose of the "use" line, the sibling verb named in it.
const VERBS: ReadonlyArray<{ verb: string; plural: boolean; what: string; use: string; sibling: string }> = [
  {
    verb: 'create',
    plural: false,
    what: 'Create a new {noun} in {Service} with its {a0} and {a1}.',
    use: 'Use to add a {noun}',
    sibling: 'update',
  },
  {
    verb: 'get',
    plural: false,
    what: 'Get one {Service} {noun} by id with its {a0}, {a1} and {a2}.',
    use: 'Use when you know the id',
    sibling: 'list',
  },
  {
    verb: 'list',
    plural: true,
    what: 'List {nouns} in {Service}, filtered by {a0} or {a1}.',
    use: 'Use to browse {nouns}',
    sibling: 'search',
  },
  {
    verb: 'search',
    plural: true,
    what: 'Search {Service} {nouns} by text, {a0} or {a2}.',
    use: 'Use to find {nouns} matching words',
    sibling: 'get',
  },
  {
    verb: 'update',
    plural: false,
    what: 'Change the {a0}, {a1} or {a3} of a {Service} {noun}.',
    use: 'Use to edit an existing {noun}',
    sibling: 'create',
  },
  {
    verb: 'delete',
    plural: false,
    what: 'Permanently delete a {noun} from {Service}.',
    use: 'Use to remove a {noun} created by mistake',
    sibling: 'archive',
  },
  {
    verb: 'archive',
    plural: false,
    what: 'Archive a {Service} {noun} so it is hidden but kept.',
    use: 'Use when a {noun} is no longer active',
    sibling: 'delete',
  },
  {
    verb: 'export',
    plural: true,
    what: 'Export {Service} {nouns} to CSV or JSON with {a0} and {a1} columns.',
    use: 'Use for reports or backups',
    sibling: 'list',
  },
  {
    verb: 'count',
    plural: true,
    what: 'Count {Service} {nouns} grouped by {a0} or {a1}.',
    use: 'Use for totals without fetching every {noun}',
    sibling: 'list',
  },
  {
    verb: 'assign',
    plural: false,
    what: 'Assign a {Service} {noun} to a person or team and set its {a1}.',
    use: 'Use to hand over work',
    sibling: 'update',
  },
  {
    verb: 'duplicate',
    plural: false,
    what: 'Copy a {Service} {noun} with its {a0} and {a2} into a new one.',
    use: 'Use to start from an existing {noun}',
    sibling: 'create',
  },
  {
    verb: 'restore',
    plural: false,
    what: 'Restore an archived or deleted {Service} {noun} with its {a0}.',
    use: 'Use to undo an archive',
    sibling: 'archive',
  },
  {
    verb: 'sync',
    plural: true,
    what: 'Synchronise {Service} {nouns} with the local cache, comparing {a0}.',
    use: 'Use after bulk changes made elsewhere',
    sibling: 'list',
  },
  {
    verb: 'watch',
    plural: false,
    what: 'Subscribe to changes of a {Service} {noun}, such as its {a2}.',
    use: 'Use to get notified when it changes',
    sibling: 'get',
  },
];

const PRECONDITIONS = [
  'Needs an API token with write scope.',
  'Only works for workspaces on a paid plan.',
  'Rate limited to 60 requests per minute.',
  '',
  '',
];

/** `count` synthetic tools, identical on every call. */
export function syntheticTools(count: number): IndexedTool[] {
  const tools: IndexedTool[] = [];
  // Past the first round, services come back as second accounts ("zendesk-2"), as people connect them.
  for (let round = 0; tools.length < count; round++) {
    for (const [domainIndex, domain] of DOMAINS.entries()) {
      for (const [serviceIndex, service] of domain.services.entries()) {
        const serverName = round === 0 ? service : `${service}-${round + 1}`;
        const seed = domainIndex + serviceIndex + round;
        for (const [nounIndex, nouns] of domain.nouns.entries()) {
          for (const [verbIndex, verb] of VERBS.entries()) {
            // Services of one domain offer different subsets, as real servers do.
            if ((seed + nounIndex + verbIndex) % 3 === 0) continue;
            tools.push(makeTool(serverName, service, domain.attributes, nouns, verb, seed + verbIndex));
            if (tools.length >= count) return tools;
          }
        }
      }
    }
  }
  return tools;
}

function makeTool(
  serverName: string,
  service: string,
  attributes: readonly string[],
  [noun, nouns]: [string, string],
  verb: (typeof VERBS)[number],
  seed: number,
): IndexedTool {
  const Service = service.charAt(0).toUpperCase() + service.slice(1);
  const fill = (text: string): string =>
    text
      .replace(/\{Service\}/g, Service)
      .replace(/\{nouns\}/g, nouns)
      .replace(/\{noun\}/g, noun)
      .replace(/\{a(\d)\}/g, (_, i: string) => attributes[Number(i)] ?? 'name');
  const snake = (text: string): string => text.replace(/ /g, '_');
  const target = verb.plural ? nouns : noun;
  const sibling = `${verb.sibling}_${snake(VERBS.find((v) => v.verb === verb.sibling)?.plural ? nouns : noun)}`;
  const lines = [fill(verb.what), `${fill(verb.use)}; ${sibling} otherwise.`];
  const precondition = PRECONDITIONS[seed % PRECONDITIONS.length];
  if (precondition) lines.push(precondition);
  const properties: Record<string, unknown> = {};
  if (!verb.plural)
    properties[`${snake(noun)}_id`] = { type: 'string', description: `The ${noun} id in ${Service}` };
  for (const attribute of attributes.slice(0, 2 + (seed % 3))) {
    properties[snake(attribute)] = { type: 'string', description: `The ${attribute} of the ${noun}` };
  }
  return {
    name: `mcp__${serverName}__${verb.verb}_${snake(target)}`,
    description: lines.join('\n'),
    parameters: { type: 'object', properties },
  };
}
