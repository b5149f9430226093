/**
 * A `<screen>` block parsed back into nodes, as a scripted model reads it: `n_5 button "New note"
 * id=new_note [editable]`. The stand-in's scripts pick node ids from it by text, as a model would.
 */
export interface ScreenNode {
  id: string;
  role: string;
  text: string | null;
  desc: string | null;
  hint: string | null;
  res: string | null;
  states: string[];
  line: string;
}

export class ScreenView {
  readonly nodes: ScreenNode[];
  readonly package: string;
  readonly activity: string;

  constructor(readonly block: string) {
    const head = /^<screen package=("[^"]*") activity=("[^"]*")/.exec(block);
    this.package = head ? JSON.parse(head[1]!) : '';
    this.activity = head ? JSON.parse(head[2]!) : '';
    this.nodes = block
      .split('\n')
      .slice(1, -1)
      .map((l) => l.trim())
      .filter((l) => /^\S+ \S+/.test(l) && !l.startsWith('('))
      .map((line) => {
        const [id, role] = line.split(' ') as [string, string];
        const str = (re: RegExp) => {
          const m = re.exec(line);
          return m ? (JSON.parse(m[1]!) as string) : null;
        };
        return {
          id,
          role,
          text: str(new RegExp(`^\\S+ \\S+ ("(?:[^"\\\\]|\\\\.)*")`)),
          desc: str(/desc=("(?:[^"\\]|\\.)*")/),
          hint: str(/hint=("(?:[^"\\]|\\.)*")/),
          res: /\bid=(\S+)/.exec(line)?.[1] ?? null,
          states: /\[([^\]]*)\]$/.exec(line)?.[1]?.split(' ') ?? [],
          line,
        };
      });
  }

  /** The first node whose text, desc or hint is `text` (exact), else contains it. */
  find(text: string | RegExp): ScreenNode | undefined {
    const vals = (n: ScreenNode) => [n.text, n.desc, n.hint].filter((v): v is string => v !== null);
    if (text instanceof RegExp) return this.nodes.find((n) => vals(n).some((v) => text.test(v)));
    return (
      this.nodes.find((n) => vals(n).some((v) => v === text)) ??
      this.nodes.find((n) => vals(n).some((v) => v.toLowerCase().includes(text.toLowerCase())))
    );
  }
  byRes(res: string): ScreenNode | undefined {
    return this.nodes.find((n) => n.res === res);
  }
  has(text: string | RegExp): boolean {
    return this.find(text) !== undefined;
  }
}
