import { Text, type TextProps } from "ink";

/** Props of {@link Txt}: Ink's Text props, with colours that may be undefined (colour off). */
export type TxtProps = Omit<TextProps, "color" | "backgroundColor"> & {
  color?: string | undefined;
  backgroundColor?: string | undefined;
};

/** Ink's Text, but a colour of undefined means "no colour" (NO_COLOR, --no-color). */
export function Txt({ color, backgroundColor, ...rest }: TxtProps) {
  return <Text {...rest} {...(color ? { color } : {})} {...(backgroundColor ? { backgroundColor } : {})} />;
}
