// Swagger UI for /docs (what FastAPI writes inline, as a file: the CSP allows no inline
// script). "Try it out" sends the page's CSRF token, as the desk's own pages do.
"use strict";
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  requestInterceptor: (request) => {
    if (window.deskCsrfToken) request.headers["X-CSRFToken"] = window.deskCsrfToken;
    return request;
  },
});
