import type { WebModule } from '../module.tsx';
import { BidForm } from './BidForm.tsx';
import { CreateAuction } from './CreateAuction.tsx';

// Sealed-bid auction: the generic room plays it; the module gives the create form and the bid form.
export const sealedBid: WebModule = {
  protocol: 'sealed-bid',
  CreateForm: CreateAuction,
  SeatActions: BidForm,
};
