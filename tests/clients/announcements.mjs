// Waiting for notifications/prompts/list_changed, shared by the client
// scripts that change a catalog while connected.
import { PromptListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

// Returns `next()`: a promise of the next announcement, rejected after 5 s
// (changes are announced within a fraction of a second; a slow CI machine
// gets some slack). Call it before making the change.
export function announcements(client) {
  let announced = () => {};
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => announced());
  return () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no list_changed within 5 s")), 5000);
      announced = () => {
        clearTimeout(timer);
        resolve();
      };
    });
}
