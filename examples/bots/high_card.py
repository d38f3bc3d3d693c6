"""A bot for bower experiments: the highest card it may play, and no bids of its own."""

PASS = 24  # the pass action in Euchre, Ghost Hand and Cutthroat (cards are the ids 0..23)


class HighCard:
    name = "high-card"

    def step(self, state):
        legal = state.legal_actions()
        cards = [a for a in legal if a < 24]
        if cards and len(cards) == len(legal):
            return max(cards, key=lambda card: card % 6)
        if PASS in legal:
            return PASS
        return legal[0]
