// The first screen put into the page's HTML as it is: a player's name with what String.replace reads
// as patterns (`$&`, `$'`, `` $` ``, `$$`) is shown as written, not as parts of the HTML.
import { describe, expect, it } from 'vitest';
import { withFirstScreen } from '../../arbiter-console/internal.ts';

const page = '<!doctype html><body><main id="page"></main><script type="module" src="/app.js"></script></body>';

describe('the first screen in the HTML', () => {
  it('goes into the main as written, whatever a name holds', () => {
    const screen = '<span class="name white">Smith $& $\' $` $$ Jones</span>';
    expect(withFirstScreen(page, screen)).toBe(
      '<!doctype html><body><main id="page"><span class="name white">Smith $& $\' $` $$ Jones</span></main><script type="module" src="/app.js"></script></body>',
    );
  });

  it('leaves an HTML without the page container as it is', () => {
    expect(withFirstScreen('<body></body>', '<p>rows</p>')).toBe('<body></body>');
  });
});
