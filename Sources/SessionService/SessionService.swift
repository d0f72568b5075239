// SessionService
