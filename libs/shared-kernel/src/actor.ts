/** Who is calling: the authenticated user behind the Bearer token. */
export interface Actor {
  userId: string;
  tokenId: string;
}
