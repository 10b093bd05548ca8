/**
 * The simple commands of a workflow's `run:` script, split as a POSIX shell
 * splits them (quotes, line continuations, `;` `&&` `||` `|`, redirections),
 * enough to check which programs a workflow calls and with which arguments.
 * Command substitutions `$(...)` are left inside their word, not listed.
 */

export interface ShellCommand {
  /** The words, quotes removed, variables left as written (`$PULUMI_STACK`). */
  words: string[];
  /** The file stdout is redirected to with `>` or `>>`, if any. */
  stdoutTo?: string;
}

const KEYWORDS = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!"]);

function splitWords(line: string): { words: string[]; separators: number[] } {
  const words: string[] = [];
  const separators: number[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const push = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  while (i < line.length) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end === -1 ? undefined : end);
      inWord = true;
      i = end === -1 ? line.length : end + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') {
        if (line[j] === "\\" && j + 1 < line.length) j++;
        word += line[j];
        j++;
      }
      inWord = true;
      i = j + 1;
    } else if (c === "$" && line[i + 1] === "(") {
      let depth = 0;
      let j = i + 1;
      do {
        if (line[j] === "(") depth++;
        if (line[j] === ")") depth--;
        j++;
      } while (j < line.length && depth > 0);
      word += line.slice(i, j);
      inWord = true;
      i = j;
    } else if (c === "#" && !inWord) {
      break;
    } else if (/\s/.test(c)) {
      push();
      i++;
    } else if (c === ";" || c === "|" || c === "&") {
      push();
      separators.push(words.length);
      i += line[i + 1] === c ? 2 : 1;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  push();
  return { words, separators };
}

/** Every simple command of a script, in order. */
export function shellCommands(script: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  for (const line of script.replace(/\\\n/g, " ").split("\n")) {
    const { words, separators } = splitWords(line);
    const cuts = [0, ...separators, words.length];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const part = words.slice(cuts[k], cuts[k + 1]);
      while (part.length > 0 && KEYWORDS.has(part[0] as string)) part.shift();
      if (part.length === 0) continue;
      const command: ShellCommand = { words: [] };
      for (let w = 0; w < part.length; w++) {
        const word = part[w] as string;
        if (word === ">" || word === ">>") {
          command.stdoutTo = part[w + 1] as string;
          w++;
        } else if (/^\d?>>?/.test(word)) {
          // 2>&1, >file and the like: a redirection, not an argument.
          const target = word.replace(/^\d?>>?/, "");
          if (!word.match(/^\d/) && target) command.stdoutTo = target;
        } else {
          command.words.push(word);
        }
      }
      if (command.words.length > 0) commands.push(command);
    }
  }
  return commands;
}
