import assert from "node:assert/strict";
import { addressRange, isForbiddenAddress } from "../../src/services/events/ssrf";
import { isAppError } from "../../src/shared/errors";
import { generateSecret } from "../../src/services/events/index";
import { harness, startReceiver, subBody, type Harness, type Receiver } from "./helpers";

describe("Unit: callback address classification", () => {
  const forbidden = [
    "127.0.0.1",
    "127.1.2.3",
    "::1",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.1",
    "100.64.0.1",
    "169.254.169.254",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "0.0.0.0",
    "::",
    "224.0.0.1",
    "255.255.255.255",
    "ff02::1",
    "240.0.0.1",
    "192.0.2.1",
    "64:ff9b::a00:1",
    "::127.0.0.1",
    "not an address",
  ];
  for (const a of forbidden) {
    it(`refuses ${a} when classifying it`, () => assert.equal(isForbiddenAddress(a), true, addressRange(a)));
  }
  for (const a of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
    it(`accepts the public address ${a}`, () => assert.equal(isForbiddenAddress(a), false));
  }
});

describe("Integration: callbacks refused for their address", () => {
  let h: Harness;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    h = await harness({ config: { webhookAllowPrivate: false } });
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  async function reason(url: string): Promise<string | undefined> {
    try {
      await h.events.subscriptions.subscribe(subBody(url, generateSecret()));
    } catch (e) {
      if (isAppError(e) && e.code === "callback_refused") return e.extra.reason as string;
      throw e;
    }
    return undefined;
  }

  const hosts = [
    "127.0.0.1",
    "[::1]",
    "10.0.0.1",
    "172.16.0.1",
    "192.168.1.1",
    "100.64.0.1",
    "169.254.169.254",
    "[fe80::1]",
    "[fc00::1]",
    "[::ffff:127.0.0.1]",
    "0.0.0.0",
    "localhost",
    "[fd00:ec2::254]",
    "2130706433",
    "0x7f.1",
    "[fe80::1%25lo]",
    "[fe80::1%25eth0]",
  ];
  for (const host of hosts) {
    it(`refuses https://${host} with forbidden_address when private addresses are not allowed`, async () => {
      const port = host.startsWith("127") || host === "localhost" || host.includes("::1") ? receiver.port : 443;
      assert.equal(await reason(`https://${host}:${port}/hook`), "forbidden_address");
    });
  }

  it("never reaches the receiver when its address is refused", () => {
    assert.equal(receiver.received.length, 0);
  });

  it("refuses a plain http callback with not_https", async () => {
    assert.equal(await reason(`http://example.com/hook`), "not_https");
  });
});

describe("Integration: redirects are not followed", () => {
  let h: Harness;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    h = await harness();
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  it("answers bad_status and never fetches the Location when the callback redirects to a private address", async () => {
    receiver.respond = (r) =>
      r.path === "/hook"
        ? { status: 302, headers: { location: `https://127.0.0.1:${receiver.port}/internal-secret` } }
        : { status: 200, body: { challenge: r.json?.challenge } };
    await assert.rejects(h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret())), (e: unknown) => {
      assert.ok(isAppError(e));
      assert.equal(e.extra.reason, "bad_status");
      return true;
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      receiver.received.map((r) => r.path),
      ["/hook"],
    );
  });
});
