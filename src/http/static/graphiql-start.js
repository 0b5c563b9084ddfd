// Starts GraphiQL on Herald's /graphiql page (served by src/http/plugins/graphiql.ts).
// Queries and mutations go to the GraphQL endpoint over HTTP, subscriptions
// over WebSocket on the same path; the header editor carries
// `Authorization: Bearer <key>` (kept in the browser's local storage).
/* global React, ReactDOM, GraphiQL */
(async function start() {
  const root = document.getElementById('graphiql');
  try {
    const config = await (await fetch('/graphiql/config.json')).json();
    const url = new URL(config.endpoint, window.location.href);
    const subscriptionUrl = new URL(url);
    subscriptionUrl.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const fetcher = GraphiQL.createFetcher({ url: url.href, subscriptionUrl: subscriptionUrl.href });
    ReactDOM.createRoot(root).render(
      React.createElement(GraphiQL, {
        fetcher,
        defaultQuery: '{\n  server { name version }\n  games(first: 5) { nodes { id gameType status } }\n}\n',
        isHeadersEditorEnabled: true,
        shouldPersistHeaders: true,
      }),
    );
  } catch (err) {
    root.textContent = `GraphiQL could not start: ${err}`;
  }
})();
