// The desk's CSRF token (the page's <meta name="csrf-token">) sent with every write this
// page makes to the desk itself, so that the pages' own fetch calls need not know of it.
"use strict";
(() => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (!meta) return;
  const token = meta.content;
  window.deskCsrfToken = token;
  const plain = window.fetch.bind(window);
  window.fetch = (resource, init = {}) => {
    const url = new URL(resource instanceof Request ? resource.url : resource, location.href);
    const method = (init.method || (resource instanceof Request ? resource.method : "GET")).toUpperCase();
    if (url.origin === location.origin && !["GET", "HEAD", "OPTIONS"].includes(method)) {
      const headers = new Headers(init.headers || (resource instanceof Request ? resource.headers : undefined));
      headers.set("X-CSRFToken", token);
      init = { ...init, headers };
    }
    return plain(resource, init);
  };
})();
