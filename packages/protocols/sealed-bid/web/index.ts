import { lazyPage, type WebModule } from '@db8/web/kit';

const BidForm = lazyPage(() => import('./BidForm.tsx').then((m) => m.BidForm));
const CreateAuction = lazyPage(() => import('./CreateAuction.tsx').then((m) => m.CreateAuction));

// Sealed-bid auction: the generic room plays it; the module gives the create form and the bid form.
export const sealedBid: WebModule = {
  protocol: 'sealed-bid',
  CreateForm: CreateAuction,
  SeatActions: BidForm,
};
