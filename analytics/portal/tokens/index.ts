import KeyIcon from '@mui/icons-material/Key';
import { TokenCreate } from './TokenCreate';
import { TokenList } from './TokenList';

/** The token manager (react-admin `tokens`): list, create (the token shown once) and delete. */
export const TokensResource = {
  list: TokenList,
  create: TokenCreate,
  icon: KeyIcon,
  recordRepresentation: (record: { purpose?: string }) => record.purpose ?? '',
};
