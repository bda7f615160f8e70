import type { CreateFormProps } from '@db8/web/kit';
import { errorAt, Field, SecondsInput } from '@db8/web/kit';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SealedBidConfigSchema } from '../rules/index.ts';

// A new sealed-bid auction: the item, the bidders, the reserve, the rule and the windows.

type Input = z.input<typeof SealedBidConfigSchema>;
const MINUTE = 60_000;
const DEFAULTS: Input = {
  item: 'A signed first edition',
  bidders: 2,
  reservePrice: 100,
  biddingWindowMs: 10 * MINUTE,
  revealWindowMs: 2 * MINUTE,
  turnWindowMs: 30_000,
  rule: 'second-price',
};
const WINDOWS = [
  ['biddingWindowMs', 'bidding window (s)'],
  ['revealWindowMs', "auctioneer's confirm window (s)"],
  ['turnWindowMs', 'tie-break turn (s)'],
] as const;

export function CreateAuction(props: CreateFormProps) {
  const form = useForm<Input>({
    resolver: zodResolver(SealedBidConfigSchema, undefined, { raw: true }),
    defaultValues: DEFAULTS,
    mode: 'onChange',
  });
  const { register, control, formState } = form;
  const err = (path: string) => errorAt(formState.errors, path);
  const num = { valueAsNumber: true } as const;
  return (
    <form onSubmit={form.handleSubmit((c) => props.onSubmit(c as Record<string, unknown>))} noValidate>
      <fieldset>
        <legend>auction</legend>
        <Field id="auction-item" label="item" error={err('item')}>
          <input id="auction-item" type="text" {...register('item')} />
        </Field>
        <div className="grid-fields">
          <Field id="auction-bidders" label="bidders (2–10)" error={err('bidders')}>
            <input id="auction-bidders" type="number" min={2} max={10} {...register('bidders', num)} />
          </Field>
          <Field id="auction-reserve" label="reserve price" error={err('reservePrice')}>
            <input id="auction-reserve" type="number" min={0} {...register('reservePrice', num)} />
          </Field>
          <Field id="auction-rule" label="price rule" error={err('rule')}>
            <select id="auction-rule" {...register('rule')}>
              <option value="second-price">second price (Vickrey)</option>
              <option value="first-price">first price</option>
            </select>
          </Field>
          {WINDOWS.map(([key, label]) => (
            <Field key={key} id={`auction-${key}`} label={label} error={err(key)}>
              <Controller
                control={control}
                name={key}
                render={({ field }) => (
                  <SecondsInput
                    id={`auction-${key}`}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                  />
                )}
              />
            </Field>
          ))}
        </div>
      </fieldset>
      {props.footer(form.watch())}
    </form>
  );
}
