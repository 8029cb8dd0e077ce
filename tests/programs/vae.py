"""examples/vae: a variational autoencoder with the BCE-plus-KL loss, on binarised blobs."""
import core
from core import nn
from core.nn import functional as F


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 4)
        self.fc22 = nn.Linear(32, 4)
        self.fc3 = nn.Linear(4, 32)
        self.fc4 = nn.Linear(32, 64)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = core.exp(0.5 * logvar)
        return mu + core.randn_like(std) * std

    def decode(self, z):
        return core.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        return self.decode(self.reparameterize(mu, logvar)), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction="sum")
    kld = -0.5 * core.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


def main():
    core.manual_seed(0)
    device = core.device("cuda" if core.cuda.is_available() else "cpu")
    centers = core.randint(1, 7, (256, 2))
    grid = core.arange(8)
    data = ((grid.view(1, 8, 1) - centers[:, 0].view(-1, 1, 1)).abs() <= 1) & \
           ((grid.view(1, 1, 8) - centers[:, 1].view(-1, 1, 1)).abs() <= 1)
    data = data.float().to(device)
    model = VAE().to(device)
    optimizer = core.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for epoch in range(60):
        optimizer.zero_grad()
        recon, mu, logvar = model(data)
        loss = loss_function(recon, data, mu, logvar)
        loss.backward()
        optimizer.step()
        losses.append(loss.item() / len(data))
    assert losses[-1] < losses[0] / 2, (losses[0], losses[-1])
    with core.no_grad():
        sample = model.decode(core.randn(8, 4, device=device))
    assert sample.shape == (8, 64)
    return losses[-1]
