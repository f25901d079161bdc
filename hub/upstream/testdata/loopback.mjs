// Preloaded with `node --import` by the tests: a server that listens without
// naming a host (as server-everything does) is bound to 127.0.0.1 instead of
// every interface.
import net from "node:net";

const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function (...args) {
  const [first] = args;
  if (first !== null && typeof first === "object" && !Array.isArray(first)) {
    if (first.host === undefined && first.path === undefined) {
      args[0] = { ...first, host: "127.0.0.1" };
    }
  } else if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    if (typeof args[1] !== "string") {
      args.splice(1, 0, "127.0.0.1");
    }
  }
  return listen.apply(this, args);
};
