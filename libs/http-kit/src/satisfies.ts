import { registerDecorator, ValidationArguments } from 'class-validator';

/**
 * A class-validator rule from a function that describes what is wrong with a value (null when it
 * is fine), for shapes the stock decorators cannot express (official unions, maps of objects).
 */
export function Satisfies(problem: (value: unknown) => string | null) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: `satisfies_${propertyName}`,
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args: ValidationArguments) => {
          const p = problem(args.value);
          return p === null
            ? `${args.property} is invalid`
            : p.startsWith(args.property) || p.startsWith('changes')
              ? p
              : `${args.property}: ${p}`;
        },
      },
    });
}
