import { ValidateIf } from 'class-validator';

/**
 * An optional property: absent (`undefined`) skips its rules, but `null` is validated like any other
 * value and so refused by them. Use class-validator's `@IsOptional()` only where the official schema
 * makes the property nullable (and the type says `| null`): there `null` means "unset".
 */
export const Optional = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);

/** Query integers: plain decimal digits only ("0x10", " 10", "1e1", "10abc" stay strings and fail @IsInt). */
export const toStrictInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : value;

/** Query booleans: exactly "true" or "false" (anything else stays a string and fails @IsBoolean). */
export const toStrictBool = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);
