// Starts Swagger UI (loaded just before from /static/swagger) on the API's OpenAPI document.
const root = document.getElementById("swagger-ui");
window.SwaggerUIBundle({ url: root.dataset.openapi, domNode: root, deepLinking: true });
