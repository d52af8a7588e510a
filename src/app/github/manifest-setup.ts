/**
 * Entry for Probot's manifest flow only: `npx probot run ./lib/app/github/manifest-setup.js`
 * serves Probot's setup page, registers the App from app.yml and writes its credentials to .env.
 * Inkwell itself handles webhooks once those credentials are set.
 */
export default function manifestSetup(): void {}
