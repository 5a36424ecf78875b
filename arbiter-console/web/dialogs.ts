// Confirm and prompt in a <dialog>, answered by a promise: unlike window.confirm/prompt they never
// block the page, so every clock on the arbiter's screen keeps ticking while a reason is typed
// (lichess ui/lib/src/view/dialogs.ts does the same).

function dialogWith(build: (d: HTMLDialogElement) => void): HTMLDialogElement {
  const d = document.createElement('dialog');
  d.className = 'ask';
  build(d);
  document.body.append(d);
  d.showModal();
  return d;
}

function button(text: string, className: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.className = className;
  b.addEventListener('click', onClick);
  return b;
}

/** Resolves true when the arbiter confirms, false on cancel or Escape. */
export function askConfirm(question: string, confirmText = 'Yes'): Promise<boolean> {
  return new Promise((resolve) => {
    const d = dialogWith((d) => {
      const p = document.createElement('p');
      p.textContent = question;
      const row = document.createElement('div');
      row.className = 'ask-buttons';
      row.append(
        button('Cancel', '', () => finish(false)),
        button(confirmText, 'danger', () => finish(true)),
      );
      d.append(p, row);
    });
    const finish = (answer: boolean) => {
      d.close();
      d.remove();
      resolve(answer);
    };
    d.addEventListener('cancel', (e) => {
      e.preventDefault();
      finish(false);
    });
    d.querySelector<HTMLButtonElement>('button.danger')!.focus();
  });
}

/** Resolves the text typed (trimmed, non-empty), or undefined on cancel. */
export function askText(question: string, initial = ''): Promise<string | undefined> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.value = initial;
    input.maxLength = 200;
    input.required = true;
    const d = dialogWith((d) => {
      const form = document.createElement('form');
      const label = document.createElement('label');
      label.textContent = question;
      label.append(input);
      const row = document.createElement('div');
      row.className = 'ask-buttons';
      const ok = button('OK', 'primary', () => {});
      ok.type = 'submit';
      row.append(
        button('Cancel', '', () => finish(undefined)),
        ok,
      );
      form.append(label, row);
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        if (input.value.trim()) finish(input.value.trim());
      });
      d.append(form);
    });
    const finish = (answer: string | undefined) => {
      d.close();
      d.remove();
      resolve(answer);
    };
    d.addEventListener('cancel', (e) => {
      e.preventDefault();
      finish(undefined);
    });
    input.focus();
    input.select();
  });
}
