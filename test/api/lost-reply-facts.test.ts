import { HostingError } from "../../src/api";
import { markLostReply } from "../../src/api/lost-reply";

/*
 * The facts a lost reply leaves on an error, field by field: the App's create decides from
 * `mayHaveTakenEffect` and `lostReply` whether to look for what it may have created. Every text a
 * user reads is compared with the literal.
 */

const failed = () => new HostingError("POST /apps failed with 502: bad gateway", "HOSTING_SERVER");

test.each(["POST", "PATCH"])("a %s: the message says so, the fields hold the facts", (method) => {
  const err = failed();
  const marked = markLostReply(method, err, "call listApps() and look for it");
  expect(marked).toBe(err);
  expect(err.message).toBe(
    "POST /apps failed with 502: bad gateway; the request reached the service and this failure " +
      "does not show whether it was applied, so it may have taken effect: call listApps() and " +
      "look for it before retrying",
  );
  expect(err.mayHaveTakenEffect).toBe(true);
  expect(err.lostReply).toStrictEqual({
    failure: "POST /apps failed with 502: bad gateway",
    check: "call listApps() and look for it",
  });
  // The stack's first line is the message a log shows: it says the same.
  expect(err.stack!.split("\n")[0]).toBe(`HostingError: ${err.message}`);
});

test("without a hint of the call's own: the general advice", () => {
  const err = markLostReply("POST", failed()) as HostingError;
  expect(err.message).toMatch(
    /may have taken effect: check whether it was applied before retrying$/,
  );
  expect(err.lostReply).toStrictEqual({
    failure: "POST /apps failed with 502: bad gateway",
    check: "check whether it was applied",
  });
});

test.each(["GET", "PUT", "DELETE", "HEAD"])(
  "a %s is safe to repeat: the error is as it was",
  (m) => {
    const err = failed();
    const stack = err.stack;
    expect(markLostReply(m, err, "call listApps()")).toBe(err);
    expect(err.message).toBe("POST /apps failed with 502: bad gateway");
    expect(err.stack).toBe(stack);
    expect(err.mayHaveTakenEffect).toBe(false);
    expect(err.lostReply).toBe(undefined);
  },
);

test("an error that is not the package's gets the advice in words, and no fields", () => {
  const err = new Error("socket hang up");
  markLostReply("POST", err, "look");
  expect(err.message).toBe(
    "socket hang up; the request reached the service and this failure does not show whether it " +
      "was applied, so it may have taken effect: look before retrying",
  );
  expect(err.stack!.split("\n")[0]).toBe(`Error: ${err.message}`);
  expect("lostReply" in err).toBe(false);
  expect("mayHaveTakenEffect" in err).toBe(false);
});

test("an error without a stack keeps none", () => {
  const err = failed();
  err.stack = undefined;
  markLostReply("POST", err, "look");
  expect(err.stack).toBe(undefined);
  expect(err.lostReply).toStrictEqual({
    failure: "POST /apps failed with 502: bad gateway",
    check: "look",
  });
});
