// A stand-in for the engine's rules file, written for the adapter's tests: the same
// exported names and argument shapes, simple behaviour of its own.

export type Trump = 'hearts' | 'diamonds' | 'clubs' | 'spades' | 'no_trump' | 'nullo' | 'open_nullo';

export interface Card {
  suit: string;
  rank: string;
  raw: string;
}

export interface Bid {
  type: 'pass' | 'suit' | 'no_trump' | 'nullo' | 'open_nullo';
  tricks?: number;
  suit?: Trump;
}

const LETTER: Record<string, string> = { spades: 'S', clubs: 'C', diamonds: 'D', hearts: 'H' };
const STRAIN_PLACE: Record<string, number> = { spades: 1, clubs: 2, diamonds: 3, hearts: 4, no_trump: 5 };
const RANKS = ['4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', 'R'];

export function parseCard(raw: string): Card {
  const [suit, rank] = raw === 'JOKER-R' ? ['JOKER', 'R'] : raw.split('-');
  return { suit, rank, raw };
}

// The joker takes the trump suit when there is one; every other card keeps its own.
export function effectiveSuit(card: Card, trump: Trump): string {
  if (card.suit !== 'JOKER') return card.suit;
  return LETTER[trump] ?? 'JOKER';
}

export function getBidValue(bid: Bid): number {
  if (bid.type === 'pass') return 0;
  if (bid.type === 'nullo') return 250;
  if (bid.type === 'open_nullo') return 500;
  const strain = bid.type === 'no_trump' ? 'no_trump' : (bid.suit as string);
  return (bid.tricks ?? 0) * 10 + STRAIN_PLACE[strain];
}

export function isValidBid(newBid: Bid, currentHighest: number): boolean {
  return newBid.type === 'pass' || getBidValue(newBid) > currentHighest;
}

export function getLegalPlays(hand: string[], trump: Trump, ledSuit: string | null, isFirstPlay: boolean): string[] {
  if (isFirstPlay || ledSuit === null) return hand;
  const following = hand.filter((raw) => effectiveSuit(parseCard(raw), trump) === ledSuit);
  return following.length > 0 ? following : hand;
}

// The highest card of the suit led wins; nothing else can.
export function resolveTrick(plays: { seat: number; card: Card }[], trump: Trump, ledSuit: string): number {
  let best = plays[0];
  for (const play of plays) {
    const onSuit = effectiveSuit(play.card, trump) === ledSuit;
    if (onSuit && RANKS.indexOf(play.card.rank) > RANKS.indexOf(best.card.rank)) best = play;
  }
  return best.seat;
}

export function calculateRoundScore(result: {
  contractorTeam: 0 | 1;
  contractTricks: number;
  contractValue: number;
  team0Tricks: number;
  team1Tricks: number;
  isNullo: boolean;
  isOpenNullo: boolean;
}): { team0Delta: number; team1Delta: number } {
  const taken = result.contractorTeam === 0 ? result.team0Tricks : result.team1Tricks;
  const misere = result.isNullo || result.isOpenNullo;
  const made = misere ? taken === 0 : taken >= result.contractTricks;
  const delta = made ? result.contractValue : -result.contractValue;
  return result.contractorTeam === 0 ? { team0Delta: delta, team1Delta: 0 } : { team0Delta: 0, team1Delta: delta };
}

export function checkGameOver(team0Score: number, team1Score: number): { over: boolean; winner?: 0 | 1 } {
  if (team0Score < 100 && team1Score < 100) return { over: false };
  return { over: true, winner: team0Score >= team1Score ? 0 : 1 };
}
