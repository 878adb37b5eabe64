// What the express README's Fastify block assumes of the portal around it: the user a session
// cookie's value names. Here a session is the sandbox's user's name.
interface PortalUser {
  clientId: string;
  upn: string;
}

const users: Record<string, PortalUser> = {
  'session-adele': { clientId: 'client_contoso', upn: 'adele@contoso.example' },
};

export function yourUserOfSession(session: string): PortalUser | undefined {
  return Object.hasOwn(users, session) ? users[session] : undefined;
}
