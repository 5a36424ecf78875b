// The arbiters' team: the credentials (the chief's token and the named tokens) and the sectors.
export { type Credentials, openCredentials, readCredentialsFile, TOKEN_FILE } from './credentials.ts';
export { Team } from './team.ts';
