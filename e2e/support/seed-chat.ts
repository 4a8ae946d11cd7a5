// Writes a long chat straight into a home's database (before the host opens it), for the long-chat test and bench.
import path from 'node:path';
import { openChatStore } from '../../main/store';

/** A varied, realistic message: prose, lists, inline code and now and then a code block. */
export function sampleMessage(i: number): string {
  // 3 and 7 are coprime: user (even) and assistant (odd) messages both get every kind.
  const kind = (i * 3) % 7;
  if (kind === 0) return `Question ${i}: how do I rename a branch and push it?`;
  if (kind === 1)
    return `Use \`git branch -m old new\`, then push with \`git push -u origin new\` (message ${i}).`;
  if (kind === 2)
    return `Here is a plan for step ${i}:\n\n1. Read the config\n2. Validate **every** field\n3. Write the result\n\nThat keeps it simple.`;
  if (kind === 3)
    return `\`\`\`ts\n// snippet ${i}\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n\`\`\``;
  if (kind === 4) return `Short reply ${i}.`;
  if (kind === 5)
    return `A longer paragraph (${i}) that wraps over several lines in the chat column. `.repeat(4);
  return `| name | value |\n|---|---|\n| row ${i} | ${i * 3} |\n| next | ${i * 7} |`;
}

/** Text only the newest seeded message has: when it is painted, the chat is open at its end. */
export const LAST_SEEDED = 'the newest seeded message';

/** Creates one chat with `count` alternating user and assistant messages; returns its id. */
export function seedLongChat(home: string, workspace: string, count: number, title = 'Long chat'): string {
  const store = openChatStore(path.join(home, 'desktop', 'agenvoy.db'));
  try {
    const chat = store.chats.create({ title, workspace });
    for (let i = 0; i < count; i++) {
      const text = i === count - 1 ? `${sampleMessage(i)}\n\n(${LAST_SEEDED})` : sampleMessage(i);
      if (i % 2 === 0) store.messages.append(chat.id, { role: 'user', content: [{ type: 'text', text }] });
      else store.messages.append(chat.id, { role: 'assistant', content: [{ type: 'text', text }] });
    }
    return chat.id;
  } finally {
    store.close();
  }
}
