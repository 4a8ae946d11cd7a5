// ask_user on the terminal: one line per question; without a terminal it answers at once that no one can reply.
import readline from 'node:readline';
import type { AskResult, AskUserPort, Question } from '../../tools/sdk/chat-ports';
import { terminalText } from './terminal-text';

/** An AskUserPort reading answers from `input` and writing prompts to `write`. */
export function terminalAskUser(input: NodeJS.ReadableStream, write: (text: string) => void): AskUserPort {
  return {
    async ask(_chatId, questions, signal): Promise<AskResult> {
      const rl = readline.createInterface({ input, terminal: false });
      const lines = rl[Symbol.asyncIterator]();
      const onAbort = () => rl.close();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const answers: Record<string, string | string[]> = {};
        for (const question of questions) {
          write(renderQuestion(question));
          const next = await lines.next();
          if (next.done)
            return { answered: false, reason: signal.aborted ? 'the turn was stopped' : 'the input ended' };
          answers[question.id] = parseAnswer(question, String(next.value));
        }
        return { answered: true, answers };
      } finally {
        signal.removeEventListener('abort', onAbort);
        rl.close();
      }
    },
  };
}

/** A port for hosts where no one can answer (no terminal, --approve not ask). */
export function unattendedAskUser(reason: string): AskUserPort {
  return { ask: async () => ({ answered: false, reason }) };
}

function renderQuestion(q: Question): string {
  // The model wrote the question and its options: no control sequence of theirs reaches the terminal.
  const options = q.options.map((o, i) => `  ${i + 1}. ${terminalText(o)}\n`).join('');
  const hint = q.kind === 'single' ? ' (number)' : q.kind === 'multiple' ? ' (numbers, comma-separated)' : '';
  // Every line of it is marked as the model's, so no line can pass for the app's own prompt (the masked secret
  // prompt, an approval) and ask for a key in plain text (docs/security.md, "What the person sees").
  const prompt = terminalText(q.prompt)
    .split('\n')
    .map((line) => `  │ ${line}`)
    .join('\n');
  return `\n? The model asks (your answer goes to the model; never type a password or key here):\n${prompt}\n${options}> ${hint ? hint.trim() + ': ' : ''}`;
}

function parseAnswer(q: Question, line: string): string | string[] {
  const text = line.trim();
  if (q.kind === 'text') return text;
  const picked = text
    .split(/[,\s]+/)
    .filter(Boolean)
    .map((token) => (/^\d+$/.test(token) ? q.options[Number(token) - 1] : q.options.find((o) => o === token)))
    .filter((o): o is string => typeof o === 'string');
  return q.kind === 'single' ? (picked[0] ?? text) : picked;
}
