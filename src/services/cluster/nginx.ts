/**
 * The nginx front for several processes: REST (and Colyseus' matchmaking HTTP calls) spread round-robin,
 * and each process's WebSocket traffic under its own path prefix, which is what its PUBLIC_ADDRESS names
 * (`front-host:port/node-N`): a seat reservation answered by any process carries the owning process's
 * public address, so the client's WebSocket reaches the process that holds the room.
 * `npm run cluster -- --nginx` and test/cluster/nginx.test.ts run exactly this configuration;
 * deploy/nginx.conf is its output for three processes.
 */
export interface NginxOptions {
  /** Port nginx listens on (all interfaces unless `listenHost` is set). */
  listen: number;
  listenHost?: string;
  /** host:port of each process, in order: the N-th is reached at /node-N/ for WebSockets. */
  backends: string[];
  /** When set, the paths nginx needs for itself (pid, temp files, logs), for a private run. */
  prefixDir?: string;
}

/** The path prefix of the N-th process (from 1): its PUBLIC_ADDRESS is `<front>/node-N`. */
export const nodePath = (n: number): string => `node-${n}`;

export function nginxConfig(o: NginxOptions): string {
  const listen = o.listenHost ? `${o.listenHost}:${o.listen}` : String(o.listen);
  const privateRun = o.prefixDir ? [`pid ${o.prefixDir}/nginx.pid;`, `error_log ${o.prefixDir}/error.log warn;`] : [];
  const temp = o.prefixDir
    ? ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `    ${t}_temp_path ${o.prefixDir}/${t}_temp;`).concat([`    access_log off;`])
    : [];
  const nodes = o.backends
    .map(
      (b, i) => `
      # WebSockets of process ${i + 1}: its PUBLIC_ADDRESS is <this host>:${o.listen}/${nodePath(i + 1)}
      location /${nodePath(i + 1)}/ {
        proxy_pass http://${b}/;
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_read_timeout 3600s;
      }`,
    )
    .join("\n");
  return `# Tile Arena behind nginx: REST round-robin, WebSockets to the process that owns the room.
# Each process runs with REDIS_URL (shared), the shared store, TRUST_PROXY=1 and
# PUBLIC_ADDRESS=<this host>:${o.listen}/node-N (N = its position in the upstream list, from 1).
${privateRun.map((l) => `${l}\n`).join("")}
events {
  worker_connections 4096;
}

http {
${temp.map((l) => `${l}\n`).join("")}
    map $http_upgrade $connection_upgrade {
      default upgrade;
      ''      close;
    }

    upstream arena {
${o.backends.map((b) => `      server ${b} max_fails=1 fail_timeout=5s;`).join("\n")}
      keepalive 32;
    }

    server {
      listen ${listen};

      # REST, MCP and matchmaking: any process answers any call. A request that could not be sent to a
      # process (connection refused: it died) goes to the next; a POST that reached one is never re-sent.
      location / {
        proxy_pass http://arena;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        # Replace, never append: the per-IP limits trust exactly one proxy (TRUST_PROXY=1).
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_next_upstream error timeout http_502;
        proxy_connect_timeout 2s;
        # sync long-polls wait up to 20 s; MCP streams events.
        proxy_read_timeout 60s;
        proxy_buffering off;
      }
${nodes}
    }
}
`;
}
