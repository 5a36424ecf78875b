// Half 2 of the whole generated tournaments (whole-tournaments.ts).
import { wholeTournaments } from './whole-tournaments.ts';

wholeTournaments(1);
