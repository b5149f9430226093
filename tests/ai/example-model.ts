import { done, longPress, press, scripted, tap, typeInto, type Route } from './scripted-model.js';
import type { Script } from './stand-in.js';

/**
 * The scripted model the example AI specs (specs/*-ai.spec.ts) were recorded against: what a
 * model does on these screens, step by step. `npm run ai:record` runs the examples against the
 * stand-in with it and rewrites specs/__ai-cache__/; the bench uses it for first-run figures.
 */
export const EXAMPLE_ROUTES: Route[] = [
  {
    match: 'create a note titled',
    turns: [tap('New note'), typeInto('title', 'Buy milk'), tap('Save'), done('note "Buy milk" created')],
  },
  { match: 'delete the note', turns: [longPress('Buy milk'), tap(/^Delete$/), tap(/^Delete$/), done('note deleted')] },
  {
    match: 'sign in as',
    turns: [
      typeInto('email', '{user}'),
      press('back'),
      tap('I accept the terms'),
      typeInto('password', '{password}'),
      press('back'),
      tap('Log in'),
      done('signed in'),
    ],
  },
  { match: 'add the first product', turns: [tap('Add to cart'), done('added')] },
];

export const exampleModel = (): Script => scripted(EXAMPLE_ROUTES);
