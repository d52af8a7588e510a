/** A release number as package.json and the tags carry it: MAJOR.MINOR.PATCH, maybe with a pre-release. */
export const RELEASE_PATTERN = /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:-[0-9A-Za-z.-]{1,40})?$/;

const majorOf = (release: string) => RELEASE_PATTERN.exec(release)?.[1];

/**
 * Whether a service of one release can serve an Action of another: the runner protocol changes
 * only with the major release (semver), so the Action's major must be the service's.
 */
export function compatibleReleases(service: string, action: string): boolean {
  const major = majorOf(service);
  return major !== undefined && major === majorOf(action);
}

/** The Action's moving tag that matches a service release, e.g. `v1` for 1.4.2. */
export const actionTagFor = (serviceRelease: string) => `v${majorOf(serviceRelease) ?? "?"}`;

/** What to tell whoever runs an Action the service cannot serve, from either side. */
export const incompatibleReleaseMessage = (service: string, action: string) =>
  `This Inkwell server is ${service} and serves the Action ${actionTagFor(service)}; this run uses the Action ${action}. ` +
  `Pin the workflow to \`uses: <owner>/inkwell@${actionTagFor(service)}\` (the tag matching the server), or upgrade the server first (docs/upgrades-and-backups.md).`;
