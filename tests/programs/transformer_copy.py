"""nn.Transformer on a toy copy task (the word-language-model and translation tutorials'
idioms): positional embeddings, the causal mask, greedy decoding."""
import core
import core.nn as nn

VOCAB, BOS, LENGTH = 8, 0, 5


class Seq2Seq(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, d_model)
        self.pos = nn.Parameter(core.randn(LENGTH + 1, 1, d_model) * 0.1)
        self.transformer = nn.Transformer(d_model, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                                          dim_feedforward=64, dropout=0.0)
        self.out = nn.Linear(d_model, VOCAB)

    def forward(self, src, tgt):
        mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(0))
        s = self.embed(src) + self.pos[:src.size(0)]
        t = self.embed(tgt) + self.pos[:tgt.size(0)]
        return self.out(self.transformer(s, t, tgt_mask=mask))


def main():
    core.manual_seed(0)
    model = Seq2Seq()
    optimizer = core.optim.Adam(model.parameters(), lr=3e-3)
    criterion = nn.CrossEntropyLoss()
    for step in range(150):
        src = core.randint(1, VOCAB, (LENGTH, 32))
        tgt_in = core.cat([core.full((1, 32), BOS, dtype=core.long), src[:-1]])
        logits = model(src, tgt_in)
        loss = criterion(logits.reshape(-1, VOCAB), src.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    src = core.randint(1, VOCAB, (LENGTH, 4))
    decoded = core.full((1, 4), BOS, dtype=core.long)
    with core.no_grad():
        for _ in range(LENGTH):
            next_token = model(src, decoded)[-1].argmax(-1, keepdim=True).T
            decoded = core.cat([decoded, next_token])
    accuracy = (decoded[1:] == src).float().mean().item()
    assert accuracy > 0.8, accuracy
    return loss.item()
