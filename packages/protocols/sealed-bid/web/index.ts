import { lazyPage, titleFromField, type WebModule } from '@db8/web/kit';

const BidForm = lazyPage(() => import('./BidForm.tsx').then((m) => m.BidForm));
const CreateAuction = lazyPage(() => import('./CreateAuction.tsx').then((m) => m.CreateAuction));
const AuctionSummary = lazyPage(() => import('./AuctionSummary.tsx').then((m) => m.AuctionSummary));

// Sealed-bid auction: the generic room plays it; the module gives the create form, the bid form and
// the auction in words (its result once over).
export const sealedBid: WebModule = {
  protocol: 'sealed-bid',
  CreateForm: CreateAuction,
  SeatActions: BidForm,
  Summary: AuctionSummary,
  titleFromConfig: titleFromField('item'),
};
