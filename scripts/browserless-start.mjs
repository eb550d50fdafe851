// Start Browserless with its Chromium routes only: this machine has Chromium, and
// Browserless refuses to start while a route names a browser it cannot find
// (Chrome, Edge, Firefox, WebKit).
import {
  Browserless,
  BrowserlessChromeRoutes,
  BrowserlessEdgeRoutes,
  BrowserlessFirefoxRoutes,
  BrowserlessWebKitRoutes,
} from '@browserless.io/browserless';

const browserless = new Browserless();
const absent = [BrowserlessChromeRoutes, BrowserlessEdgeRoutes, BrowserlessFirefoxRoutes, BrowserlessWebKitRoutes];
browserless.disableRoutes(...absent.flatMap(Object.values));
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, async () => {
    await browserless.stop();
    process.exit(0);
  });
}
await browserless.start();
