// The sandbox page: draws the state the server streams (GET /events) the
// way Discord would, and turns what the user does into POST /api/command,
// /api/click and /api/skip.
'use strict';

const $ = (sel) => document.querySelector(sel);
const avatarColors = ['#5865f2', '#3ba55c', '#eb459e', '#faa61a', '#ed4245', '#00a8fc', '#9b59b6', '#1abc9c'];

let users = [];
let locales = []; // Discord's locales: {value, name}
let user = '';
let channel = '';
let state = null;
let skew = 0; // sandbox time minus browser time, in ms
let source = null;
const drawn = new Map(); // message ID -> {key, el}
const dismissed = new Set(JSON.parse(sessionStorage.getItem('mf-dismissed') || '[]'));
const failures = new Map(); // message ID -> "This interaction failed"
const pendingClicks = new Set(); // message IDs with a click in flight
const seen = new Map(); // channel ID -> newest message ID seen there (IDs of equal length sort as numbers)
const commandHistory = JSON.parse(localStorage.getItem('mf-history') || '[]');
let historyAt = -1;

// ---- helpers ----

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'html') e.innerHTML = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function escapeHTML(s) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function sandboxNow() { return Date.now() + skew; }

function userName(id) {
  if (state && id === state.bot) return 'Malefiz';
  const u = users.find((u) => u.id === id);
  return u ? u.name : 'user' + id.slice(-4);
}

function userColor(id) {
  const i = users.findIndex((u) => u.id === id);
  return avatarColors[(i < 0 ? id.length : i) % avatarColors.length];
}

function avatar(id, cls) {
  const a = el('span', { class: 'avatar ' + (cls || ''), 'aria-hidden': 'true', text: userName(id).slice(0, 1).toUpperCase() });
  a.style.background = userColor(id);
  return a;
}

function two(n) { return String(n).padStart(2, '0'); }

function clockText(ms) {
  const d = new Date(ms);
  return d.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' }) + ' ' + two(d.getHours()) + ':' + two(d.getMinutes());
}

function messageTime(ms) {
  const d = new Date(ms);
  const now = new Date(sandboxNow());
  const hm = two(d.getHours()) + ':' + two(d.getMinutes());
  const day = (x) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((day(now) - day(d)) / 86400000);
  if (days === 0) return 'Today at ' + hm;
  if (days === 1) return 'Yesterday at ' + hm;
  return two(d.getDate()) + '/' + two(d.getMonth() + 1) + '/' + d.getFullYear() + ' ' + hm;
}

function duration(ms) {
  const parts = [];
  let m = Math.round(ms / 60000);
  const d = Math.floor(m / 1440); m -= d * 1440;
  const h = Math.floor(m / 60); m -= h * 60;
  if (d) parts.push(d + (d === 1 ? ' day' : ' days'));
  if (h) parts.push(h + ' h');
  if (m) parts.push(m + ' min');
  return parts.join(' ') || '0 min';
}

// readerLocale is the Discord language of the user the page plays as:
// Discord's client writes a timestamp (<t:…>) in its reader's language.
function readerLocale() {
  const u = users.find((u) => u.id === user);
  const l = (u && u.locale) || 'en-US';
  try { return Intl.getCanonicalLocales(l)[0]; } catch (e) { return 'en-US'; }
}

function relativeTime(ms) {
  const loc = readerLocale();
  const relative = new Intl.RelativeTimeFormat(loc, { numeric: 'always' });
  const diff = (ms - sandboxNow()) / 1000;
  const abs = Math.abs(diff);
  if (abs < 45 && loc.startsWith('en')) return diff >= 0 ? 'in a few seconds' : 'a few seconds ago';
  if (abs < 45) return relative.format(Math.round(diff), 'second');
  const steps = [[3600, 60, 'minute'], [86400 * 1.5, 3600, 'hour'], [86400 * 30, 86400, 'day'], [86400 * 365, 86400 * 30, 'month']];
  for (const [limit, unit, name] of steps) {
    if (abs < limit) return relative.format(Math.round(diff / unit), name);
  }
  return relative.format(Math.round(diff / (86400 * 365)), 'year');
}

function timestampText(ms, style) {
  const d = new Date(ms);
  const loc = readerLocale();
  const styles = {
    t: { timeStyle: 'short' }, T: { timeStyle: 'medium' }, d: { dateStyle: 'short' }, D: { dateStyle: 'long' },
    F: { dateStyle: 'full', timeStyle: 'short' }, f: { dateStyle: 'long', timeStyle: 'short' },
  };
  if (style === 'R') return relativeTime(ms);
  return new Intl.DateTimeFormat(loc, styles[style] || styles.f).format(d);
}

// ---- Discord's markdown, the part bots use ----

function inline(text) {
  // text is escaped already.
  return text
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention">@${escapeHTML(userName(id))}</span>`)
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => {
      const c = state && state.channels.find((c) => c.id === id);
      return `<a class="mention" href="#c=${id}">#${escapeHTML(c ? c.name : 'unknown')}</a>`;
    })
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, n, style) =>
      `<span class="ts" data-ts="${Number(n) * 1000}" data-style="${style || 'f'}" title="${escapeHTML(timestampText(Number(n) * 1000, 'F'))}">${escapeHTML(timestampText(Number(n) * 1000, style))}</span>`)
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, (_, label, url) => link(url, label))
    .replace(/(^|[\s(])(https?:\/\/[^\s<)]+)/g, (_, pre, url) => pre + link(url, url))
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/__([^_]+)__/g, '<u>$1</u>')
    .replace(/\*([^*\s][^*]*)\*/g, '<em>$1</em>')
    .replace(/(^|\W)_([^_\s][^_]*)_(?=\W|$)/g, '$1<em>$2</em>')
    .replace(/~~([^~]+)~~/g, '<s>$1</s>');
}

function link(url, label) {
  const jump = url.match(/^https:\/\/(?:\w+\.)?discord(?:app)?\.com\/channels\/\d+\/(\d+)(?:\/(\d+))?/);
  if (jump) {
    // A bare jump link is drawn as Discord's client draws one, a chip with
    // the channel's name (and 💬 for a message), and opens it in the sandbox.
    if (label === url) {
      const c = state && state.channels.find((c) => c.id === jump[1]);
      label = `<span class="mention jump">#${escapeHTML(c ? c.name : 'unknown')}${jump[2] ? ' › 💬' : ''}</span>`;
    }
    return `<a class="jump-link" href="#c=${jump[1]}${jump[2] ? '&amp;m=' + jump[2] : ''}" title="${url}">${label}</a>`;
  }
  return `<a href="${url}" target="_blank" rel="noopener noreferrer">${label}</a>`;
}

function markdown(src) {
  const lines = src.split('\n');
  const out = lines.map((line) => {
    const codeSplit = (s) => escapeHTML(s).split(/(`[^`]+`)/).map((part, i) =>
      i % 2 ? `<code>${part.slice(1, -1)}</code>` : inline(part)).join('');
    let m;
    if ((m = line.match(/^-# (.*)$/))) return `<span class="subtext">${codeSplit(m[1])}</span>`;
    if ((m = line.match(/^> (.*)$/))) return `<blockquote>${codeSplit(m[1])}</blockquote>`;
    if ((m = line.match(/^(#{1,3}) (.*)$/))) return `<h3 class="md-h${m[1].length}">${codeSplit(m[2])}</h3>`;
    if ((m = line.match(/^( *)[-*] (.*)$/))) return `<div class="md-li" style="--depth:${Math.min(Math.floor(m[1].length / 2), 3)}">${codeSplit(m[2])}</div>`;
    if ((m = line.match(/^( *)(\d{1,9})\. (.*)$/))) return `<div class="md-li ol" data-n="${Number(m[2])}." style="--depth:${Math.min(Math.floor(m[1].length / 2), 3)}">${codeSplit(m[3])}</div>`;
    return codeSplit(line);
  });
  // Block elements carry their own line break.
  let html = '';
  out.forEach((l, i) => {
    html += l;
    if (i < out.length - 1 && !/^<(blockquote|h3|div)/.test(l)) html += '\n';
  });
  return html;
}

// ---- messages ----

function colorHex(n) { return '#' + (n >>> 0).toString(16).padStart(6, '0').slice(-6); }

function renderEmbed(e) {
  const box = el('div', { class: 'embed' });
  if (e.color) box.style.borderLeftColor = colorHex(e.color);
  if (e.author && e.author.name) box.append(el('div', { class: 'embed-author', text: e.author.name }));
  if (e.title) {
    const t = el('div', { class: 'embed-title', html: e.url ? link(escapeHTML(e.url), inline(escapeHTML(e.title))) : inline(escapeHTML(e.title)) });
    box.append(t);
  }
  if (e.description) box.append(el('div', { class: 'embed-desc', html: markdown(e.description) }));
  if (e.fields && e.fields.length) {
    const fields = el('div', { class: 'embed-fields' });
    for (const f of e.fields) {
      fields.append(el('div', { class: 'embed-field' + (f.inline ? ' inline' : '') },
        el('div', { class: 'embed-field-name', html: inline(escapeHTML(f.name || '')) }),
        el('div', { class: 'embed-field-value', html: markdown(f.value || '') })));
    }
    box.append(fields);
  }
  if (e.image && e.image.url) {
    const img = el('img', { src: e.image.url, alt: e.title ? 'Image: ' + e.title : 'Embedded image',
      width: e.image.width || undefined, height: e.image.height || undefined });
    img.addEventListener('load', keepScrolled);
    box.append(el('a', { class: 'embed-image', href: e.image.url, target: '_blank', 'aria-label': 'Open the image' }, img));
  }
  if (e.thumbnail && e.thumbnail.url) box.append(el('img', { class: 'thumb', src: e.thumbnail.url, alt: '' }));
  if ((e.footer && e.footer.text) || e.timestamp) {
    let text = e.footer ? e.footer.text : '';
    if (e.timestamp) text += (text ? ' • ' : '') + messageTime(Date.parse(e.timestamp));
    box.append(el('div', { class: 'embed-footer', text }));
  }
  return box;
}

const buttonStyles = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'danger', 5: 'link', 6: 'primary' };

function emojiText(emoji) { return emoji && emoji.name ? emoji.name + ' ' : ''; }

function renderControl(m, c) {
  if (c.type === 2) {
    if (c.style === 5 && c.url) {
      return el('a', { class: 'btn link', href: c.url, target: '_blank', rel: 'noopener noreferrer' }, emojiText(c.emoji) + (c.label || ''), ' ↗');
    }
    return el('button', {
      type: 'button', class: 'btn ' + (buttonStyles[c.style] || 'secondary'), 'data-cid': c.custom_id,
      disabled: c.disabled || m.archived, title: m.archived ? archivedTitle : undefined, onclick: () => click(m.id, c.custom_id),
    }, emojiText(c.emoji) + (c.label || ''));
  }
  if (c.type === 3) {
    const sel = el('select', { class: 'menu', 'data-cid': c.custom_id, disabled: c.disabled || m.archived,
      title: m.archived ? archivedTitle : undefined, 'aria-label': c.placeholder || 'Choose' });
    sel.append(el('option', { value: '', disabled: true, selected: true, text: c.placeholder || 'Make a selection' }));
    for (const o of c.options || []) {
      sel.append(el('option', { value: o.value, text: emojiText(o.emoji) + o.label + (o.description ? ' — ' + o.description : '') }));
    }
    sel.addEventListener('change', () => { if (sel.value) click(m.id, c.custom_id, [sel.value]); });
    return sel;
  }
  return el('span', { class: 'failed', text: 'This kind of component is not shown in the sandbox.' });
}

function renderRow(m, row) {
  const r = el('div', { class: 'row' });
  for (const c of row.type === 1 ? row.components || [] : [row]) r.append(renderControl(m, c));
  return r;
}

function renderComponents(m) {
  const box = el('div', { class: 'components' });
  for (const row of m.components || []) box.append(renderRow(m, row));
  return box;
}

// ---- Components V2: the layout components of a message with the flag IS_COMPONENTS_V2 ----

const archivedTitle = 'This thread is archived: its buttons and menus cannot be used.';

// spoiler hides node behind a blur until it is clicked, as Discord does.
function spoiler(node, on) {
  if (!on) return node;
  const wrap = el('div', { class: 'spoiler', role: 'button', tabindex: '0', 'aria-label': 'Spoiler: press to show' }, node);
  const reveal = (ev) => {
    if (wrap.classList.contains('revealed')) return;
    ev.preventDefault();
    wrap.classList.add('revealed');
    wrap.removeAttribute('role');
    wrap.removeAttribute('tabindex');
    wrap.removeAttribute('aria-label');
  };
  wrap.addEventListener('click', reveal);
  wrap.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') reveal(ev); });
  return wrap;
}

// mediaImage draws an unfurled media item ({url, width, height}).
function mediaImage(media, alt, cls) {
  const url = media && media.url;
  if (!url) return el('div', { class: 'media-missing ' + cls, text: 'This media could not be loaded.' });
  const img = el('img', { src: url, alt: alt || '', width: media.width || undefined, height: media.height || undefined });
  img.addEventListener('load', keepScrolled);
  return el('a', { class: cls, href: url, target: '_blank', 'aria-label': alt ? 'Open the image: ' + alt : 'Open the image' }, img);
}

function renderText(c) {
  return el('div', { class: 'content v2-text', html: markdown(c.content || '') });
}

function renderThumbnail(c) {
  return spoiler(mediaImage(c.media, c.description, 'v2-thumb'), c.spoiler);
}

function renderGallery(c) {
  const items = (c.items || []).slice(0, 10);
  const box = el('div', { class: 'v2-gallery', 'data-n': items.length });
  items.forEach((it) => box.append(spoiler(mediaImage(it.media, it.description, 'v2-item'), it.spoiler)));
  return box;
}

function renderFile(c) {
  const url = c.file && c.file.url;
  const name = c.name || (url ? decodeURIComponent(url.split('/').pop()) : 'file');
  const size = typeof c.size === 'number' ? el('span', { class: 'desc', text: Math.max(1, Math.ceil(c.size / 1024)) + ' KB' }) : null;
  const box = url
    ? el('a', { class: 'file v2-file', href: url, download: name }, el('span', { class: 'file-icon', 'aria-hidden': 'true', text: '📄' }),
      el('span', { class: 'file-meta' }, el('span', { class: 'file-name', text: name }), size))
    : el('div', { class: 'media-missing', text: 'This file could not be loaded.' });
  return spoiler(box, c.spoiler);
}

function renderSeparator(c) {
  const cls = ['v2-separator', c.spacing === 2 ? 'large' : 'small'];
  if (c.divider !== false) cls.push('divider');
  return el('div', { class: cls.join(' '), role: c.divider !== false ? 'separator' : undefined });
}

function renderSection(m, c) {
  const box = el('div', { class: 'v2-section' });
  box.append(el('div', { class: 'v2-section-text' }, ...(c.components || []).map((t) => renderV2(m, t))));
  const acc = c.accessory;
  if (acc) {
    const side = el('div', { class: 'v2-accessory' });
    side.append(acc.type === 11 ? renderThumbnail(acc) : renderControl(m, acc));
    box.append(side);
  }
  return box;
}

function renderContainer(m, c) {
  const box = el('div', { class: 'v2-container' + (c.accent_color !== undefined && c.accent_color !== null ? ' accent' : '') });
  if (c.accent_color !== undefined && c.accent_color !== null) box.style.setProperty('--accent', colorHex(c.accent_color));
  for (const child of c.components || []) box.append(renderV2(m, child));
  return spoiler(box, c.spoiler);
}

// renderV2 draws one layout component and what it holds.
function renderV2(m, c) {
  switch (c.type) {
    case 1: return renderRow(m, c);
    case 2: case 3: return el('div', { class: 'row' }, renderControl(m, c));
    case 9: return renderSection(m, c);
    case 10: return renderText(c);
    case 11: return renderThumbnail(c);
    case 12: return renderGallery(c);
    case 13: return renderFile(c);
    case 14: return renderSeparator(c);
    case 17: return renderContainer(m, c);
    default: return el('div', { class: 'failed', text: 'This kind of component (' + c.type + ') is not shown in the sandbox.' });
  }
}

function renderV2Message(m) {
  const box = el('div', { class: 'v2' });
  for (const c of m.components || []) box.append(renderV2(m, c));
  return box;
}

function renderMessage(m, grouped) {
  const cls = ['msg'];
  if (grouped) cls.push('grouped');
  if (m.pinged) cls.push('pinged');
  if (m.ephemeral) cls.push('ephemeral');
  if (m.invoker) cls.push('reply');
  if (pendingClicks.has(m.id)) cls.push('pending');
  const li = el('li', { class: cls.join(' '), id: 'm-' + m.id, 'data-id': m.id, tabindex: '-1' });
  const body = el('div', { class: 'body' });
  if (m.invoker) {
    const line = el('div', { class: 'reply-line' }, avatar(m.invoker), el('b', { text: userName(m.invoker) }));
    if (m.command) line.append(' used ', el('span', { class: 'cmd', text: m.command }));
    else line.append(' used a button or menu');
    body.append(line);
  }
  if (!grouped) {
    li.append(el('span', { class: 'avatar bot', 'aria-hidden': 'true', text: '🎲' }));
    body.append(el('h3', { class: 'head' },
      el('span', { class: 'author', text: 'Malefiz' }),
      el('span', { class: 'app-tag', text: '✓ APP' }),
      el('time', { datetime: new Date(m.time).toISOString(), title: new Date(m.time).toString(), text: messageTime(m.time) })));
  } else {
    li.append(el('time', { class: 'side-time', text: timestampText(m.time, 't') }));
  }
  if (m.loading) body.append(el('div', { class: 'loading', text: 'Malefiz is thinking' }));
  if (m.v2) {
    body.append(renderV2Message(m));
    if (m.edited) body.append(el('span', { class: 'edited', text: '(edited)' }));
  }
  if (m.content && !m.v2) {
    const c = el('div', { class: 'content', html: markdown(m.content) });
    if (m.edited) c.append(el('span', { class: 'edited', text: '(edited)' }));
    body.append(c);
  }
  for (const e of m.v2 ? [] : m.embeds || []) body.append(renderEmbed(e));
  if (m.attachments && m.attachments.length) {
    const box = el('div', { class: 'attachments' });
    for (const a of m.attachments) {
      if (a.image) {
        const img = el('img', { src: a.url, alt: a.name, width: a.width || undefined, height: a.height || undefined });
        img.addEventListener('load', keepScrolled);
        box.append(el('a', { href: a.url, target: '_blank', 'aria-label': 'Open ' + a.name }, img));
      } else {
        box.append(el('a', { class: 'file', href: a.url, download: a.name }, '📄 ', a.name, ' ', el('span', { class: 'desc', text: '(' + Math.ceil(a.size / 1024) + ' KB)' })));
      }
    }
    body.append(box);
  }
  if (!m.v2 && m.components && m.components.length) body.append(renderComponents(m));
  if (failures.has(m.id)) body.append(el('div', { class: 'failed', role: 'alert', text: failures.get(m.id) }));
  if (m.ephemeral) {
    body.append(el('div', { class: 'ephemeral-note' }, '👁 Only you can see this • ',
      el('button', { type: 'button', onclick: () => dismiss(m.id), text: 'Dismiss message' })));
  }
  li.append(body);
  return li;
}

function dismiss(id) {
  dismissed.add(id);
  sessionStorage.setItem('mf-dismissed', JSON.stringify([...dismissed]));
  draw();
  $('#command').focus();
}

function nearBottom() {
  const list = $('#messages');
  return list.scrollHeight - list.scrollTop - list.clientHeight < 120;
}

let stick = true;
function keepScrolled() {
  if (stick) $('#messages').scrollTop = $('#messages').scrollHeight;
}

// The list's size when it was last laid out: a scroll event that comes with
// a new size is the resize's, not the reader's, and must not unstick the list.
let listSize = '';
function sizeOf(list) { return list.clientWidth + 'x' + list.clientHeight; }

function onListScroll() {
  const list = $('#messages');
  if (sizeOf(list) !== listSize) return;
  stick = nearBottom();
}

function onListResize() {
  listSize = sizeOf($('#messages'));
  keepScrolled();
}

function drawMessages() {
  const list = $('#messages');
  stick = nearBottom() || stick === 'force';
  const messages = state.messages.filter((m) => !dismissed.has(m.id));
  const focused = document.activeElement;
  const focusedMsg = focused && focused.closest ? focused.closest(".msg") : null;
  const focusedCid = focused && focused.dataset ? focused.dataset.cid : undefined;
  let refocus = null;
  const seen = new Set();
  let prev = null;
  if (!messages.length) {
    list.replaceChildren(el('li', { class: 'empty' }, el('h2', { text: 'Welcome to #' + channelName(channel) + '!' }),
      'Type ', el('code', { text: '/malefiz new bots:1' }), ' in the box below to open a game with a computer player, then press Start. ',
      'Switch users at the bottom left to join as someone else.'));
    drawn.clear();
    return;
  }
  const empty = list.querySelector('.empty');
  if (empty) empty.remove();
  messages.forEach((m, i) => {
    const grouped = prev !== null && !m.invoker && !prev.ephemeral && !m.ephemeral && m.time - prev.time < 7 * 60000;
    const key = JSON.stringify(m) + '|' + grouped + '|' + pendingClicks.has(m.id) + '|' + (failures.get(m.id) || '');
    let entry = drawn.get(m.id);
    if (!entry || entry.key !== key) {
      const fresh = renderMessage(m, grouped);
      if (entry) {
        if (focusedMsg === entry.el) refocus = { el: fresh, cid: focusedCid };
        entry.el.replaceWith(fresh);
      }
      entry = { key, el: fresh };
      drawn.set(m.id, entry);
    }
    seen.add(m.id);
    if (list.children[i] !== entry.el) list.insertBefore(entry.el, list.children[i] || null);
    prev = m;
  });
  for (const [id, entry] of drawn) {
    if (!seen.has(id)) { entry.el.remove(); drawn.delete(id); }
  }
  if (refocus) {
    const same = refocus.cid && [...refocus.el.querySelectorAll('[data-cid]')].find((c) => c.dataset.cid === refocus.cid && !c.disabled);
    const first = refocus.el.querySelector('button:not(:disabled), select:not(:disabled)');
    (same || first || refocus.el).focus({ preventScroll: true });
  }
  keepScrolled();
}

function channelName(id) {
  const c = state && state.channels.find((c) => c.id === id);
  return c ? c.name : 'general';
}

function unread(c) {
  if (!c.last || c.id === channel) return false;
  const s = seen.get(c.id) || '';
  return c.last.length > s.length || (c.last.length === s.length && c.last > s);
}

function channelEntry(c) {
  const icon = c.dm ? '@' : c.thread ? '↳' : '#';
  const name = c.dm ? c.name + ' (direct messages)' : c.name;
  const a = el('a', { href: '#c=' + c.id, title: name + (c.archived ? ' (archived)' : ''), 'aria-current': c.id === channel ? 'page' : undefined },
    el('span', { class: 'icon', 'aria-hidden': 'true', text: icon }), el('span', { class: 'name', text: name }),
    unread(c) ? el('span', { class: 'unread', title: 'New messages', 'aria-label': 'new messages' }) : null);
  a.addEventListener('click', (ev) => { ev.preventDefault(); openChannel(c.id); setNav(false); });
  return el('li', { class: (c.thread ? 'thread' : '') + (c.archived ? ' archived' : '') + (c.dm ? ' dm' : '') }, a);
}

function drawChannels() {
  for (const c of state.channels) {
    if (c.id === channel || !seen.has(c.id)) seen.set(c.id, c.last || '');
  }
  $('#channels').replaceChildren(...state.channels.filter((c) => !c.dm).map(channelEntry));
  const dms = state.channels.filter((c) => c.dm);
  $('#dms').replaceChildren(...dms.map(channelEntry));
  $('#dm-category').hidden = dms.length === 0;
  const current = state.channels.find((c) => c.id === channel);
  $('.chat-header .hash').textContent = current && current.dm ? '@' : '#';
  $('#channel-name').textContent = channelName(channel);
  $('#archived-note').hidden = !(current && current.thread && current.archived);
  document.title = (current && current.dm ? '@' : '#') + channelName(channel) + ' · Malefiz sandbox';
}

function drawClock() {
  if (!state) return;
  const offset = state.offset ? ' (+' + duration(state.offset) + ')' : '';
  $('#clock').textContent = '🕒 ' + clockText(sandboxNow()) + offset;
}

function refreshTimes() {
  for (const s of document.querySelectorAll('.ts[data-style="R"]')) s.textContent = relativeTime(Number(s.dataset.ts));
  drawClock();
}

// drawLocales shows the server's language and the user's, as the state
// says (another tab may have changed them).
function drawLocales() {
  if (state.users) users = state.users;
  const me = users.find((u) => u.id === user);
  const mine = $('#user-locale');
  if (me && document.activeElement !== mine) mine.value = me.locale || 'en-US';
  const server = $('#guild-locale');
  if (document.activeElement !== server) server.value = state.guild_locale || 'en-US';
  const lang = (me && me.locale) || 'en-US';
  if (document.documentElement.lang !== lang) {
    document.documentElement.lang = lang;
    drawn.clear(); // timestamps are written in the reader's language
    $('#messages').replaceChildren();
  }
}

function localeName(value) {
  const l = locales.find((l) => l.value === value);
  return l ? l.name : value;
}

async function setLocale(body, what) {
  try {
    const r = await post('/api/locale', body);
    toast(what + ': ' + localeName(r.locale) + '. The next commands and clicks carry it.');
  } catch (err) {
    toast('Language not changed: ' + err.message);
  }
}

function draw() {
  if (!state) return;
  $('#guild').textContent = state.guild;
  drawLocales();
  drawChannels();
  drawMessages();
  drawClock();
}

// ---- the event stream ----

function connect() {
  if (source) source.close();
  // Nothing of the previous view stays on screen until the new one arrives.
  state = null;
  drawn.clear();
  $('#messages').replaceChildren();
  delete document.body.dataset.user;
  const url = '/events?user=' + encodeURIComponent(user) + '&channel=' + encodeURIComponent(channel);
  source = new EventSource(url);
  source.addEventListener('state', (ev) => {
    const next = JSON.parse(ev.data);
    if (next.user !== user || next.channel !== channel) return; // an older stream
    skew = next.now - Date.now();
    const first = !state || state.channel !== next.channel || state.user !== next.user;
    state = next;
    if (first) { drawn.clear(); $('#messages').replaceChildren(); stick = 'force'; }
    $('#banner').hidden = true;
    draw();
    document.body.dataset.ready = 'true';
    document.body.dataset.user = state.user;
    document.body.dataset.channel = state.channel;
  });
  source.onerror = () => {
    const b = $('#banner');
    b.textContent = 'Connection to the sandbox lost: reconnecting…';
    b.hidden = false;
  };
}

function openChannel(id, messageID) {
  if (id !== channel) {
    channel = id;
    history.replaceState(null, '', '#c=' + id);
    connect();
  }
  if (messageID) {
    const tryScroll = (n) => {
      const m = document.getElementById('m-' + messageID);
      if (m) { m.scrollIntoView({ block: 'center' }); m.focus({ preventScroll: true }); } else if (n > 0) setTimeout(() => tryScroll(n - 1), 100);
    };
    tryScroll(20);
  }
}

function setUser(id) {
  user = id;
  localStorage.setItem('mf-user', id);
  $('#user').value = id;
  const u = users.find((u) => u.id === id);
  $('#user-locale').value = (u && u.locale) || 'en-US';
  const me = $('#me-avatar');
  me.textContent = userName(id).slice(0, 1);
  me.style.background = userColor(id);
  failures.clear();
  connect();
  if (!$('#activity-pane').hidden) openActivity(); // the Activity of the user now playing
}

// setNav opens or closes the channel list on narrow screens.
function setNav(open) {
  document.body.classList.toggle('nav-open', open);
  $('#nav-toggle').setAttribute('aria-expanded', open ? 'true' : 'false');
  if (open) { const a = $('#channels a[aria-current="page"]') || $('#channels a'); if (a) a.focus(); }
}

// ---- actions ----

async function post(path, body) {
  const resp = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  let data = {};
  try { data = await resp.json(); } catch (e) { /* not JSON */ }
  if (!resp.ok) throw new Error(data.error || resp.statusText);
  return data;
}

async function click(messageID, customID, values) {
  if (pendingClicks.has(messageID)) return;
  pendingClicks.add(messageID);
  failures.delete(messageID);
  draw();
  try {
    const r = await post('/api/click', { user, message: messageID, custom_id: customID, values });
    if (r && r.launch) openActivity();
  } catch (err) {
    const own = err.message === 'This interaction failed' || err.message === archivedTitle;
    failures.set(messageID, own ? err.message : 'This interaction failed: ' + err.message);
  } finally {
    pendingClicks.delete(messageID);
    draw();
  }
}

// openActivity opens the Activity as the Discord client does on
// LAUNCH_ACTIVITY: in a pane beside the chat (the whole screen on a
// phone), for the user playing and the channel shown. The page in it is
// not embedded in Discord, so it takes the SDK's DiscordSDKMock, whose
// authorize the stand-in answers.
function openActivity() {
  const src = `/.proxy/?user=${encodeURIComponent(user)}&channel=${encodeURIComponent(channel)}`;
  const frame = $('#activity-frame');
  if (frame.getAttribute('src') !== src) frame.setAttribute('src', src);
  $('#activity-who').textContent = userName(user);
  $('#activity-pane').hidden = false;
  document.body.classList.add('activity-open');
}

function closeActivity() {
  $('#activity-pane').hidden = true;
  document.body.classList.remove('activity-open');
  $('#activity-frame').removeAttribute('src');
}

function toast(text) {
  const t = $('#toast');
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 2500);
}

async function skip() {
  const sel = $('#skip-by');
  const label = sel.options[sel.selectedIndex].text;
  $('#skip').disabled = true;
  try {
    const r = await post('/api/skip', { by: sel.value });
    skew = r.now - Date.now();
    toast('Skipped ' + label + '; the timers due have run.');
  } catch (err) {
    toast('Skip failed: ' + err.message);
  } finally {
    $('#skip').disabled = false;
    refreshTimes();
  }
}

// ---- the command box ----

const input = () => $('#command');
let suggestions = [];
let active = -1;
let navigated = false;

function optionsOf(words, cmd) {
  // Walks the subcommands named in words; returns the options that apply and how many words it used.
  let opts = cmd.options || [];
  let used = 0;
  while (opts.length && (opts[0].type === 1 || opts[0].type === 2) && used < words.length) {
    const sub = opts.find((o) => o.name === words[used].toLowerCase());
    if (!sub) break;
    opts = sub.options || [];
    used++;
  }
  return { opts, used };
}

function computeSuggestions(value) {
  if (!state || !value.startsWith('/')) return [];
  const words = value.slice(1).split(/\s+/);
  const current = words[words.length - 1];
  const before = words.slice(0, -1);
  if (before.length === 0) {
    return state.commands.filter((c) => c.name.startsWith(current.toLowerCase()))
      .map((c) => ({ insert: '/' + c.name + ' ', name: '/' + c.name, desc: c.description }));
  }
  const cmd = state.commands.find((c) => c.name === before[0].toLowerCase());
  if (!cmd) return [];
  const { opts, used } = optionsOf(before.slice(1), cmd);
  const prefix = '/' + before.join(' ') + ' ';
  if (opts.length && (opts[0].type === 1 || opts[0].type === 2)) {
    if (used < before.length - 1) return [];
    return opts.filter((o) => o.name.startsWith(current.toLowerCase()))
      .map((o) => ({ insert: prefix + o.name + ' ', name: o.name, desc: o.description }));
  }
  const given = new Set(before.slice(1 + used).map((w) => w.split(':')[0]));
  const colon = current.indexOf(':');
  if (colon >= 0) {
    const o = opts.find((o) => o.name === current.slice(0, colon).toLowerCase());
    if (!o) return [];
    const partial = current.slice(colon + 1).toLowerCase();
    let values = [];
    if (o.choices && o.choices.length) values = o.choices.map((c) => ({ v: String(c.value), d: c.name }));
    else if (o.type === 5) values = [{ v: 'true', d: 'yes' }, { v: 'false', d: 'no' }];
    else if (o.type === 6 || o.type === 9) values = users.map((u) => ({ v: u.name, d: 'user' }));
    else return [];
    return values.filter((x) => x.v.toLowerCase().startsWith(partial) || x.d.toLowerCase().startsWith(partial))
      .map((x) => ({ insert: prefix + o.name + ':' + x.v + ' ', name: o.name + ':' + x.v, desc: x.d }));
  }
  const typeNames = { 3: 'text', 4: 'whole number', 5: 'true or false', 6: 'user', 7: 'channel', 10: 'number' };
  return opts.filter((o) => !given.has(o.name) && o.name.startsWith(current.toLowerCase()))
    .sort((a, b) => (b.required ? 1 : 0) - (a.required ? 1 : 0))
    .map((o) => {
      const kind = o.choices && o.choices.length ? 'one of ' + o.choices.map((c) => c.value).join(', ') : (typeNames[o.type] || '') + rangeText(o);
      return { insert: prefix + o.name + ':', name: o.name + ':', desc: (o.required ? 'required · ' : '') + kind + ' · ' + o.description, required: o.required };
    });
}

// rangeText says the registered range of a number or text option.
function rangeText(o) {
  const lo = o.type === 3 ? o.min_length : o.min_value;
  const hi = o.type === 3 ? o.max_length : o.max_value;
  const unit = o.type === 3 ? ' characters' : '';
  if (lo !== undefined && hi) return ' ' + lo + '–' + hi + unit;
  if (lo !== undefined) return ' ≥ ' + lo + unit;
  if (hi) return ' ≤ ' + hi + unit;
  return '';
}

function drawSuggestions() {
  const list = $('#suggest');
  const box = input();
  if (!suggestions.length) {
    list.hidden = true;
    box.setAttribute('aria-expanded', 'false');
    box.removeAttribute('aria-activedescendant');
    return;
  }
  list.replaceChildren(el('li', { class: 'title', role: 'presentation', text: 'Malefiz' }), ...suggestions.map((s, i) =>
    el('li', { role: 'option', id: 'sg-' + i, 'aria-selected': i === active ? 'true' : 'false',
      onmousedown: (ev) => { ev.preventDefault(); accept(i); } },
    el('span', { class: 'name', text: s.name }), el('span', { class: 'desc' + (s.required ? ' req' : ''), text: s.desc || '' }))));
  list.hidden = false;
  box.setAttribute('aria-expanded', 'true');
  if (active >= 0) {
    box.setAttribute('aria-activedescendant', 'sg-' + active);
    const item = document.getElementById('sg-' + active);
    if (item) item.scrollIntoView({ block: 'nearest' });
  }
}

function updateSuggestions() {
  suggestions = computeSuggestions(input().value);
  active = suggestions.length ? 0 : -1;
  navigated = false;
  drawSuggestions();
}

function accept(i) {
  const s = suggestions[i];
  if (!s) return;
  input().value = s.insert;
  input().focus();
  updateSuggestions();
}

async function send() {
  const box = input();
  const line = box.value.trim();
  const err = $('#composer-error');
  err.textContent = '';
  if (!line) return;
  if (!line.startsWith('/')) {
    err.textContent = 'The bot answers slash commands only: start with /, for example /malefiz help.';
    return;
  }
  box.disabled = true;
  try {
    await post('/api/command', { user, channel, line });
    commandHistory.unshift(line);
    commandHistory.splice(20);
    localStorage.setItem('mf-history', JSON.stringify(commandHistory));
    box.value = '';
    stick = 'force';
  } catch (e) {
    err.textContent = e.message;
  } finally {
    box.disabled = false;
    historyAt = -1;
    box.focus();
    updateSuggestions();
  }
}

function onKey(ev) {
  const open = suggestions.length > 0;
  if (ev.key === 'ArrowDown' && open) {
    ev.preventDefault(); active = (active + 1) % suggestions.length; navigated = true; drawSuggestions();
  } else if (ev.key === 'ArrowUp' && open && (input().value !== '' || navigated)) {
    ev.preventDefault(); active = (active - 1 + suggestions.length) % suggestions.length; navigated = true; drawSuggestions();
  } else if (ev.key === 'ArrowUp' && commandHistory.length && (input().value === '' || historyAt >= 0)) {
    ev.preventDefault(); historyAt = Math.min(historyAt + 1, commandHistory.length - 1); input().value = commandHistory[historyAt];
    suggestions = []; drawSuggestions();
  } else if (ev.key === 'Tab' && open && !ev.shiftKey) {
    ev.preventDefault(); accept(active < 0 ? 0 : active);
  } else if (ev.key === 'Enter') {
    ev.preventDefault();
    if (open && navigated) accept(active); else send();
  } else if (ev.key === 'Escape' && open) {
    ev.preventDefault(); suggestions = []; drawSuggestions();
  }
}

// ---- start ----

async function start() {
  const info = await (await fetch('/api/users')).json();
  users = info.users;
  $('#guild').textContent = info.guild;
  locales = info.locales || [];
  const sel = $('#user');
  sel.replaceChildren(...users.map((u) => el('option', { value: u.id, text: u.name + (u.admin ? ' · admin' : ''),
    title: u.admin ? u.name + ' is the server\'s admin (Manage Server)' : undefined })));
  sel.addEventListener('change', () => setUser(sel.value));
  const localeOptions = () => locales.map((l) => el('option', { value: l.value, text: l.name, title: l.value }));
  const mine = $('#user-locale');
  mine.replaceChildren(...localeOptions());
  mine.addEventListener('change', () => setLocale({ user, locale: mine.value }, userName(user) + '\'s Discord language'));
  const server = $('#guild-locale');
  server.replaceChildren(...localeOptions());
  server.value = info.guild_locale || 'en-US';
  server.addEventListener('change', () => setLocale({ server: true, locale: server.value }, 'The server\'s language'));
  const hash = new URLSearchParams(location.hash.slice(1));
  channel = hash.get('c') || info.channel;
  const saved = localStorage.getItem('mf-user');
  setUser(users.some((u) => u.id === saved) ? saved : users[0].id);
  if (hash.get('m')) openChannel(channel, hash.get('m'));
  window.addEventListener('hashchange', () => {
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.get('c')) openChannel(h.get('c'), h.get('m'));
  });
  $('#skip').addEventListener('click', skip);
  $('#activity-close').addEventListener('click', closeActivity);
  $('#composer').addEventListener('submit', (ev) => { ev.preventDefault(); send(); });
  input().addEventListener('input', () => { historyAt = -1; updateSuggestions(); });
  input().addEventListener('keydown', onKey);
  input().addEventListener('focus', updateSuggestions);
  input().addEventListener('blur', () => { suggestions = []; drawSuggestions(); });
  $('#messages').addEventListener('scroll', onListScroll);
  new ResizeObserver(onListResize).observe($('#messages'));
  $('#nav-toggle').addEventListener('click', () => setNav(!document.body.classList.contains('nav-open')));
  $('#nav-backdrop').addEventListener('click', () => setNav(false));
  document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && document.body.classList.contains('nav-open')) setNav(false); });
  setInterval(refreshTimes, 10000);
  input().focus();
}

start();
