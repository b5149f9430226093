import { SHOP_API } from './model.js';

/**
 * The Shop's help centre, its `help/index.html` asset: a heading, a search box that filters the
 * questions as you type, questions that open their answers, and "Back to shop", which calls the
 * app's JavaScript bridge (`ShopBridge.close()`) to close the screen, and the featured product,
 * which the page fetches from the shop's server (`GET /products/1`, a cross-origin request with
 * CORS) — so an instance's network routes reach it as they reach the app's own requests. Plain
 * HTML and script, as an app ships it; the simulator loads it in Chromium.
 */

/** The questions and their answers, in the page's order. */
export const HELP_QUESTIONS: ReadonlyArray<{ id: string; question: string; answer: string }> = [
  {
    id: 'refund',
    question: 'How do I get a refund?',
    answer: 'Open the order and choose Return. We refund your payment within 30 days of receiving the item.',
  },
  {
    id: 'order',
    question: 'Where is my order?',
    answer: 'Your order is on its way: the confirmation email has a tracking link that shows where it is.',
  },
  {
    id: 'address',
    question: 'How do I change my address?',
    answer: 'Before the order ships, open it and choose Edit address. After that the carrier can redirect it.',
  },
  {
    id: 'paypal',
    question: 'Can I pay with PayPal?',
    answer: 'Yes: choose PayPal at checkout and sign in to PayPal to confirm the payment.',
  },
  {
    id: 'delete',
    question: 'How do I delete my account?',
    answer: 'Write to support from the email you signed up with; the account and its data are deleted within a week.',
  },
];

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const HELP_INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Help</title>
<style>
  body { font-family: sans-serif; margin: 0; padding: 16px; color: #1c1b1f; background: #ffffff; }
  h1 { font-size: 28px; margin: 8px 0 16px; }
  input { box-sizing: border-box; width: 100%; font-size: 18px; padding: 12px; border: 2px solid #6750a4; border-radius: 8px; }
  ul { list-style: none; padding: 0; margin: 16px 0; }
  li { border-bottom: 1px solid #ddd; padding: 4px 0; }
  .question { display: block; width: 100%; text-align: left; font-size: 18px; padding: 12px 0; background: none; border: none; color: #6750a4; }
  .answer { font-size: 16px; margin: 0 0 12px; }
  #none { color: #666; }
  #featured { font-size: 16px; margin: 0 0 16px; padding: 12px; background: #f3edf7; border-radius: 8px; }
  #back { font-size: 18px; padding: 12px 24px; background: #6750a4; color: #fff; border: none; border-radius: 24px; }
</style>
</head>
<body>
<h1>Help</h1>
<input id="search" type="search" placeholder="Search help" autocomplete="off">
<ul id="questions">
${HELP_QUESTIONS.map(
  (q) => `  <li id="q-${q.id}">
    <button class="question" aria-expanded="false" aria-controls="a-${q.id}">${escape(q.question)}</button>
    <p class="answer" id="a-${q.id}" hidden>${escape(q.answer)}</p>
  </li>`,
).join('\n')}
</ul>
<p id="none" hidden>No questions match your search.</p>
<p id="featured" aria-live="polite">Loading the featured product…</p>
<button id="back">Back to shop</button>
<script>
  const featured = document.getElementById('featured');
  fetch('${SHOP_API}/products/1', { headers: { accept: 'application/json' } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((p) => (featured.textContent = 'Featured: ' + p.name + ', $' + (p.price / 100).toFixed(2)))
    .catch(() => (featured.textContent = "Couldn't load the featured product"));
  const search = document.getElementById('search');
  const items = [...document.querySelectorAll('#questions li')];
  search.addEventListener('input', () => {
    const q = search.value.trim().toLowerCase();
    let shown = 0;
    for (const li of items) {
      const hit = li.querySelector('.question').textContent.toLowerCase().includes(q);
      li.hidden = !hit;
      if (hit) shown++;
    }
    document.getElementById('none').hidden = shown > 0;
  });
  for (const li of items) {
    const button = li.querySelector('.question');
    button.addEventListener('click', () => {
      const answer = li.querySelector('.answer');
      answer.hidden = !answer.hidden;
      button.setAttribute('aria-expanded', String(!answer.hidden));
    });
  }
  document.getElementById('back').addEventListener('click', () => window.ShopBridge.close());
</script>
</body>
</html>
`;
