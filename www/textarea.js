// A plain <textarea> with line numbers and marked lines. Lines never wrap
// (wrap="off"), so line n is always at (n - 1) line heights from the top:
// the numbers and the marks are layers behind and beside the textarea that
// follow its scrolling. The textarea stays a native control: undo, IME,
// selection, and Tab moving focus all work as usual.

/**
 * @param {HTMLTextAreaElement} textarea
 * @returns {{ refresh(): void, setMarks(marks: {line: number, kind: string, title?: string}[]): void,
 *            reveal(line: number): void, setValue(text: string): void }}
 */
export function lineNumbered(textarea) {
  const wrap = document.createElement('div');
  wrap.className = 'editor';
  const marks = layer('marks');
  const gutter = layer('gutter');
  gutter.setAttribute('aria-hidden', 'true');
  textarea.replaceWith(wrap);
  wrap.append(marks, gutter, textarea);
  textarea.setAttribute('wrap', 'off');
  textarea.spellcheck = false;
  textarea.setAttribute('autocapitalize', 'off');
  textarea.setAttribute('autocomplete', 'off');

  let count = -1; // lines in the text
  let shown = ''; // which numbers the gutter holds now: "first-last"
  let lineHeight = 0;
  function refresh() {
    let n = 1;
    for (let i = textarea.value.indexOf('\n'); i !== -1; i = textarea.value.indexOf('\n', i + 1)) n++;
    if (n !== count) {
      count = n;
      shown = '';
      wrap.style.setProperty('--digits', String(String(n).length));
    }
    sync();
  }
  // The gutter holds only the numbers in view, so a 100,000-line file costs
  // no more than a short one.
  function sync() {
    lineHeight ||= parseFloat(getComputedStyle(textarea).lineHeight) || 20;
    const top = textarea.scrollTop;
    const first = Math.floor(top / lineHeight);
    const last = Math.min(count, first + Math.ceil(textarea.clientHeight / lineHeight) + 1);
    if (shown !== `${first}-${last}`) {
      shown = `${first}-${last}`;
      const numbers = [];
      for (let i = first + 1; i <= last; i++) numbers.push(i);
      gutter.inner.textContent = numbers.join('\n');
    }
    gutter.inner.style.transform = `translateY(${first * lineHeight - top}px)`;
    marks.inner.style.transform = `translateY(${-top}px)`;
  }
  new ResizeObserver(() => {
    lineHeight = 0;
    sync();
  }).observe(textarea);
  textarea.addEventListener('input', refresh);
  textarea.addEventListener('scroll', sync);

  function setMarks(list) {
    marks.inner.replaceChildren(
      ...list.map(({ line, kind, title }) => {
        const m = document.createElement('div');
        m.className = `mark mark-${kind}`;
        m.dataset.line = String(line);
        m.dataset.kind = kind;
        if (title) m.title = title;
        m.style.setProperty('--line', String(line - 1));
        return m;
      }),
    );
  }

  /** Puts the caret on a line (1-based), selects it and scrolls it into view. */
  function reveal(line) {
    const lines = textarea.value.split('\n');
    const i = Math.min(Math.max(line, 1), lines.length) - 1;
    const start = lines.slice(0, i).reduce((sum, l) => sum + l.length + 1, 0);
    textarea.focus({ preventScroll: true });
    textarea.setSelectionRange(start, start + lines[i].length);
    const lh = lineHeight || parseFloat(getComputedStyle(textarea).lineHeight) || 20;
    const top = i * lh;
    if (top < textarea.scrollTop || top + lh > textarea.scrollTop + textarea.clientHeight) {
      textarea.scrollTop = Math.max(0, top - textarea.clientHeight / 3);
    }
    sync();
  }

  function setValue(text) {
    textarea.value = text;
    textarea.scrollTop = 0;
    refresh();
  }

  refresh();
  return { refresh, setMarks, reveal, setValue };
}

function layer(name) {
  const outer = document.createElement('div');
  outer.className = name;
  const inner = document.createElement('div');
  inner.className = `${name}-inner`;
  outer.append(inner);
  outer.inner = inner;
  return outer;
}
