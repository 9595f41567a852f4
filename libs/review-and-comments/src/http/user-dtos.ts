import { Links } from '@app/http-kit';
import { User } from '@app/organizations-and-teams';
import { toUserDto, UserDto } from '@app/wire';

/**
 * The users a response names, as wire users, each built once per response (a list of 100 comments
 * names the same few people hundreds of times). An id with no user shows as "Unknown user".
 */
export function userDtos(users: Map<string, User>, links: Links): (id: string) => UserDto {
  const built = new Map<string, UserDto>();
  return (id) => {
    let dto = built.get(id);
    if (!dto) {
      const user = users.get(id) ?? {
        id,
        email: '',
        displayName: 'Unknown user',
        photoURL: null,
        createdAt: new Date(0),
        emailAssertedBy: null,
      };
      dto = toUserDto(user, links);
      built.set(id, dto);
    }
    return dto;
  };
}
