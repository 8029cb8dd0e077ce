"""The sequence-models tutorial's LSTM part-of-speech tagger."""
import core
import core.nn as nn
import core.nn.functional as F

TRAINING_DATA = [
    ("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
    ("Everybody read that book".split(), ["NN", "V", "DET", "NN"]),
]
TAGS = {"DET": 0, "NN": 1, "V": 2}


class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        return F.log_softmax(self.hidden2tag(lstm_out.view(len(sentence), -1)), dim=1)


def prepare_sequence(seq, to_ix):
    return core.tensor([to_ix[w] for w in seq], dtype=core.long)


def main():
    core.manual_seed(1)
    word_to_ix = {}
    for sent, _ in TRAINING_DATA:
        for word in sent:
            word_to_ix.setdefault(word, len(word_to_ix))
    model = LSTMTagger(6, 6, len(word_to_ix), len(TAGS))
    loss_function = nn.NLLLoss()
    optimizer = core.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(300):
        for sentence, tags in TRAINING_DATA:
            model.zero_grad()
            tag_scores = model(prepare_sequence(sentence, word_to_ix))
            loss = loss_function(tag_scores, prepare_sequence(tags, TAGS))
            assert loss.grad_fn.name() == "NllLossBackward0"
            loss.backward()
            optimizer.step()
    with core.no_grad():
        scores = model(prepare_sequence(TRAINING_DATA[0][0], word_to_ix))
    assert scores.argmax(1).tolist() == [0, 1, 2, 0, 1]
    return loss.item()
