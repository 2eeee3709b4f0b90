// Who may use a team: members and their roles, invitations, password reset (one import for app.ts).
export { invitationRoutes } from './invitations';
export { memberRoutes } from './members';
export { passwordResetRoutes } from './password-reset';
