import { InvalidInputError } from '@app/shared-kernel';

export interface User {
  id: string;
  displayName: string;
  email: string;
  photoURL: string | null;
  createdAt: Date;
  /**
   * The organization whose identity provider created this user (SSO), or null. Such an email is vouched
   * for by that IdP only: it does not let the user join other organizations by email domain.
   */
  emailAssertedBy: string | null;
}

export abstract class UserRepository {
  abstract findById(id: string): Promise<User | null>;
  abstract findByEmail(email: string): Promise<User | null>;
  abstract findByIds(ids: string[]): Promise<User[]>;
  abstract findByEmails(emails: string[]): Promise<User[]>;
  abstract insert(user: User): Promise<void>;
  /** Writes the profile fields (display name, photo); false when the user is gone. */
  abstract updateProfile(user: Pick<User, 'id' | 'displayName' | 'photoURL'>): Promise<boolean>;
  abstract count(): Promise<number>;
}

/** The official `updateUserById` limits: a display name of 1 to 64 characters; a photo URL as an organization's links (http or https). */
export const DISPLAY_NAME_MAX = 64;
export const PHOTO_URL_MAX = 2048;

export interface UserProfilePatch {
  displayName?: string;
  photoURL?: string;
}

/** A user's profile with a patch applied: the display name trimmed and not empty, no control characters in either. */
export function applyUserProfilePatch(user: User, patch: UserProfilePatch): User {
  const next = { ...user };
  if (patch.displayName !== undefined) {
    const name = patch.displayName.trim();
    if (name.length === 0 || name.length > DISPLAY_NAME_MAX)
      throw new InvalidInputError(`displayName: 1 to ${DISPLAY_NAME_MAX} characters, not only spaces`);
    if ([...name].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))
      throw new InvalidInputError('displayName: no control characters');
    next.displayName = name;
  }
  if (patch.photoURL !== undefined) next.photoURL = patch.photoURL;
  return next;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isEmail(value: string): boolean {
  return value.length <= 320 && EMAIL.test(value);
}
